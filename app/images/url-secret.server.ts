import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The key image addresses are signed with: IMAGE_URL_SECRET when set (needed when several machines
 * serve the site), else a random key kept in the cache folder, made by whichever process starts first
 * and read by the others and by later starts, so addresses in cached pages stay valid.
 */
export function urlSecret({ secret, cacheDir }: { secret?: string; cacheDir: string }): string {
  if (secret) return secret;
  const file = path.join(cacheDir, "url-secret");
  mkdirSync(cacheDir, { recursive: true });
  try {
    // "wx": only one process creates it.
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stored = readFileSync(file, "utf8").trim();
  if (stored.length < 16) throw new Error(`${file} holds no usable key: delete it and restart`);
  return stored;
}
