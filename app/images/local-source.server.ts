import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { ImageSourceError } from "./errors.server";

/** The folder whose files the site serves at its root; image links such as /images/blog/x.jpg are in it. */
const publicDir = path.resolve("public");

/** The file a root-relative link names, when it is inside public/ (and not a build asset). */
export function localFile(link: string): string | undefined {
  if (!link.startsWith("/") || link.startsWith("//")) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(link, "http://local").pathname);
  } catch {
    return undefined;
  }
  const file = path.resolve(publicDir, `.${pathname}`);
  if (!file.startsWith(publicDir + path.sep) || file.startsWith(path.join(publicDir, "build") + path.sep))
    return undefined;
  return file;
}

const versions = new Map<string, string | null>();

/**
 * A short hash of a local image's content, which goes into its addresses so that a changed picture
 * gets new ones. Read once per file: the embedded content is read once per start too.
 */
export function localVersion(link: string): string | undefined {
  const file = localFile(link);
  if (!file) return undefined;
  let version = versions.get(file);
  if (version === undefined) {
    try {
      version = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 10);
    } catch {
      version = null;
    }
    versions.set(file, version);
  }
  return version ?? undefined;
}

export function readLocalSource(link: string, maxBytes: number): Buffer {
  const file = localFile(link);
  try {
    if (!file) throw new Error("outside public/");
    if (statSync(file).size > maxBytes) throw new ImageSourceError(413, "the file is larger than the byte limit");
    return readFileSync(file);
  } catch (error) {
    if (error instanceof ImageSourceError) throw error;
    throw new ImageSourceError(404, `no such file in public/`);
  }
}
