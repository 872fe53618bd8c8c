import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  // Written whole under a name of its own, then linked into place: linking fails for all but the first
  // process, and no process can read a key half written (origins often start together).
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  const stored = readFileSync(file, "utf8").trim();
  if (stored.length < 16) throw new Error(`${file} holds no usable key: delete it and restart`);
  return stored;
}
