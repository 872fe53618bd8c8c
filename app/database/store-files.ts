import { createHash } from "node:crypto";
import path from "node:path";

/**
 * Where a site's catalogue and its counts are kept: one SQLite file per site and domain in CATALOGUE_DIR, or,
 * with a catalogue database, rows under the same name. The name comes from where the articles come from
 * (the backend's address and the domain, or the content folder), not from the site's other settings: a
 * restart or a new site name keeps the catalogue and its counts.
 */

/** What names a site's store: its backend, or its content folder. */
export type StoreOrigin = { blogApi?: { url: string }; contentDir: string };

/** The SQLite file of a site's store for a domain, in `dir`. */
export function storeFile(dir: string, site: StoreOrigin, domain: string): string {
  const origin = site.blogApi ? `backend ${site.blogApi.url} ${domain}` : `files ${site.contentDir}`;
  const name = (site.blogApi ? domain : path.basename(site.contentDir)).replace(/[^a-z0-9.-]+/gi, "_").slice(0, 60);
  const id = createHash("sha256")
    .update(origin)
    .digest("base64url")
    .slice(0, 12)
    .replace(/[^a-z0-9]/gi, "0");
  return path.join(dir, `${name}-${id}.sqlite`);
}

/** The name of a store in the database: its file's, without the folder. */
export const storeName = (file: string) => path.basename(file, ".sqlite");
