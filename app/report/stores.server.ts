import { readdirSync } from "node:fs";
import path from "node:path";
import { readPostgresPeriod } from "~/counts/pg-counts.server";
import { readSqlitePeriod } from "~/counts/sqlite-counts.server";
import type pg from "pg";
import { run } from "~/database/postgres.server";
import { storeFile, storeName } from "~/database/store-files";
import type { SiteSettings } from "~/site/config.server";
import type { CountRow } from "./figures";
import type { Period } from "./period";

/** Stores read for one report at most: a site whose domain comes from the request may have had many. */
export const MAX_STORES = 64;

/** A store's name ends with a hash of its origin (app/database/store-files.ts): "zen.example.org-AbC123dEf456". */
const NAMED_DOMAIN = /^(.+)-[A-Za-z0-9]{12}$/;

/**
 * Pure: the names of the site's count stores among those that exist. A site with one domain (embedded
 * articles, or SITE_DOMAIN) has one catalogue; a site whose domain comes from the request's host has one
 * per domain it was reached at, each found by the domain its name begins with, then checked against the
 * name that domain gives (`nameOf`): another site's store is never taken for this one's.
 */
export function storesOfSite(
  site: SiteSettings,
  existing: readonly string[],
  nameOf: (domain: string) => string,
): string[] {
  if (!site.blogApi || site.siteDomain) {
    const name = nameOf(site.siteDomain ?? "localhost");
    return existing.includes(name) ? [name] : [];
  }
  return existing
    .filter((name) => {
      const domain = NAMED_DOMAIN.exec(name)?.[1];
      return domain !== undefined && nameOf(domain) === name;
    })
    .sort();
}

export type SiteCounts = { stores: CountRow[][]; names: string[]; unread: number };

/** Where the counts are kept: the SQLite files in CATALOGUE_DIR, or the catalogue database's pool when there is one. */
export type CountStores = { dir: string; pool?: pg.Pool };

/**
 * The counts of the period in each of the site's stores, summed by the store (app/counts/store.ts's
 * periodSumsQuery): the catalogues' SQLite files in CATALOGUE_DIR, read through read-only connections, or
 * the catalogue database's counts. The page and `npm run report` both
 * read here; counts a process holds in memory (5 s at most) are not in the store yet.
 */
export async function readSiteCounts(
  site: SiteSettings,
  period: Period,
  { dir, pool }: CountStores,
): Promise<SiteCounts> {
  const nameOf = (domain: string) => storeName(storeFile(dir, site, domain));
  const existing = pool
    ? (await run<{ name: string }>(pool, "SELECT name FROM catalogues", [])).map((row) => row.name)
    : sqliteNames(dir);
  const all = storesOfSite(site, existing, nameOf);
  const names = all.slice(0, MAX_STORES);
  const stores = pool
    ? await Promise.all(names.map((name) => readPostgresPeriod(pool, name, period.from, period.to)))
    : names.map((name) => readSqlitePeriod(path.join(dir, `${name}.sqlite`), period.from, period.to));
  return { stores, names, unread: all.length - names.length };
}

function sqliteNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => file.endsWith(".sqlite"))
      .map((file) => storeName(file));
  } catch {
    // No catalogue yet: nothing counted either.
    return [];
  }
}
