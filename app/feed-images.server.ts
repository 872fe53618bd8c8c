import { statSync } from "node:fs";
import path from "node:path";
import type { Enclosure } from "feed";

/**
 * RSS enclosures need the file's byte length and MIME type. They are known for the site's own images
 * (the size is on disk); an image on another host would need a fetch per feed request, so it gets no
 * enclosure (the item's content still shows it).
 */

const PUBLIC_DIR = path.resolve("public");

const imageTypes: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".avif": "image/avif",
};

/** Sizes looked up once per path (the files do not change while the server runs). */
const sizes = new Map<string, number | undefined>();

function sizeOnDisk(file: string): number | undefined {
  if (!sizes.has(file)) {
    try {
      const stats = statSync(file);
      sizes.set(file, stats.isFile() ? stats.size : undefined);
    } catch {
      sizes.set(file, undefined);
    }
  }
  return sizes.get(file);
}

/** The enclosure of an article's image link, when it is one of the site's own files. */
export function imageEnclosure(link: string | undefined, origin: string): Enclosure | undefined {
  if (!link?.startsWith("/") || link.startsWith("//")) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(link, "http://site").pathname);
  } catch {
    return undefined;
  }
  const file = path.join(PUBLIC_DIR, pathname);
  const type = imageTypes[path.extname(file).toLowerCase()];
  if (!type || !file.startsWith(PUBLIC_DIR + path.sep)) return undefined;
  const length = sizeOnDisk(file);
  return length === undefined ? undefined : { url: new URL(link, origin).toString(), type, length };
}
