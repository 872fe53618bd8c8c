import { statSync } from "node:fs";
import path from "node:path";
import type { Enclosure } from "feed";
import { localFile } from "~/images/local-source.server";

/**
 * RSS enclosures need the file's byte length and MIME type. They are known for the site's own images
 * (the size is on disk); an image on another host would need a fetch per feed request, so it gets no
 * enclosure (the item's content still shows it).
 */

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
  const file = link ? localFile(link) : undefined;
  const type = file ? imageTypes[path.extname(file).toLowerCase()] : undefined;
  if (!link || !file || !type) return undefined;
  const length = sizeOnDisk(file);
  return length === undefined ? undefined : { url: new URL(link, origin).toString(), type, length };
}
