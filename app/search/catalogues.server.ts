import { createHash } from "node:crypto";
import path from "node:path";
import type pg from "pg";
import type { BlogSource } from "~/blog/source.server";
import { getSettings, type SiteSettings } from "~/site/config.server";
import { metrics } from "~/metrics/record.server";
import type { Catalogue } from "./catalogue";
import { createBackendPacer } from "./backend-pace.server";
import { openPostgresCatalogue } from "./pg-catalogue.server";
import { createPool, prepareDatabase } from "~/database/postgres.server";
import { openSqliteCatalogue } from "./sqlite-catalogue.server";
import { startSync } from "./sync.server";

/**
 * The catalogue of each site and domain, opened when first asked for, with its sync started. Its file
 * is named by where the articles come from (the backend's address and the domain, or the content
 * folder), not by the site's other settings: a restart or a new site name keeps the catalogue.
 * With CATALOG_DATABASE_URL, the catalogues are in PostgreSQL instead, under that same name, shared by
 * every origin that uses the database (docs/decisions/036).
 */

type Open = { catalogue: Catalogue; stop: () => Promise<void>; syncedAt?: number; label: string; site: string };

/**
 * Domains one site may have catalogues for. A site on a backend without SITE_DOMAIN takes the domain from
 * the request's host: without a bound, requests with made-up hosts (when ALLOWED_HOSTS is unset) would each
 * open a file. Beyond it, such a host's search answers 503 and its read next comes from the list.
 */
export const MAX_DOMAINS_PER_SITE = 16;

/** A catalogue not opened on purpose (MAX_DOMAINS_PER_SITE): nothing to log each time. */
export class CatalogueRefused extends Error {}
const open = new Map<string, Open>();
/**
 * Sites a reload of the sites file removed or changed (their objects: a changed site is a new one): a request
 * still in flight for one of them opens no catalogue, and so starts no sync, anew.
 */
const retired = new WeakSet<SiteSettings>();
/** The stores of retired sites, closed a while after their sync stopped: a request in flight may still read one. */
const closingLater = new Set<Catalogue>();
const RETIRED_CLOSE_MS = 60_000;
/** One pacer per backend: the sites it serves share CATALOG_CALLS_PER_SECOND, with the other processes (app/search/backend-pace.server.ts). */
const pacers = new Map<string, () => Promise<void>>();
/** The process's pool to the catalogue database, when there is one. */
let pool: pg.Pool | undefined;

/** The process's pool to the catalogue database, if there is one (the counts share it: app/counts). */
export function databasePool() {
  const database = getSettings().catalogue.database;
  if (!database) return undefined;
  pool ??= createPool(database);
  return pool;
}

/**
 * At start, before any site opens its catalogue: with a catalogue database, connects to it and brings its
 * schema up to date. Answers the one-line reason when it cannot be used (the server then stops).
 */
export async function prepareCatalogues(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const database = getSettings().catalogue.database;
  const found = databasePool();
  if (!database || !found) return { ok: true };
  const prepared = await prepareDatabase(found, database.url);
  if (prepared.ok && prepared.applied.length > 0) console.log(`Catalogue database: schema migrated to version ${prepared.applied.at(-1)}`);
  return prepared.ok ? { ok: true } : prepared;
}

/** The name of a catalogue in the database: its file's, without the folder. */
export const catalogueName = (file: string) => path.basename(file, ".sqlite");

function openCatalogue(file: string): Catalogue {
  const database = databasePool();
  return database ? openPostgresCatalogue(database, catalogueName(file)) : openSqliteCatalogue(file);
}

export function catalogueFile(site: SiteSettings, domain: string): string {
  const origin = site.blogApi ? `backend ${site.blogApi.url} ${domain}` : `files ${site.contentDir}`;
  const name = (site.blogApi ? domain : path.basename(site.contentDir)).replace(/[^a-z0-9.-]+/gi, "_").slice(0, 60);
  const id = createHash("sha256").update(origin).digest("base64url").slice(0, 12).replace(/[^a-z0-9]/gi, "0");
  return path.join(getSettings().catalogue.dir, `${name}-${id}.sqlite`);
}

/** True when a sync of its own keeps the site's catalogue in step: not for a backend's site with CATALOG_SYNC=off. */
export function catalogueSyncs(site: SiteSettings): boolean {
  return !site.blogApi || getSettings().catalogue.sync;
}

export function catalogueOf(site: SiteSettings, domain: string, source: BlogSource): Catalogue {
  const file = catalogueFile(site, domain);
  const known = open.get(file);
  if (known) return known.catalogue;
  if (retired.has(site)) throw new CatalogueRefused(`${site.label}: no catalogue opened, the site was removed or changed by a reload`);
  const settings = getSettings();
  if ([...open.values()].filter((entry) => entry.site === site.key).length >= MAX_DOMAINS_PER_SITE) {
    throw new CatalogueRefused(`${site.label}: no catalogue for ${domain}, the site has ${MAX_DOMAINS_PER_SITE} domains already (set SITE_DOMAIN)`);
  }
  const catalogue = openCatalogue(file);
  const entry: Open = { catalogue, stop: async () => {}, label: site.label, site: site.key };
  open.set(file, entry);
  metrics.watchCatalogues(catalogueStatus);
  // CATALOG_SYNC=off: no calls of its own to a backend; what readers' requests fetch is still kept.
  if (!catalogueSyncs(site)) return catalogue;
  const sync = startSync({
    catalogue,
    source,
    domain,
    // Embedded files cost nothing to read: no pacing.
    callsPerSecond: site.blogApi ? settings.catalogue.callsPerSecond : Number.POSITIVE_INFINITY,
    pace: site.blogApi ? pacerOf(site.blogApi.url, settings.catalogue.callsPerSecond) : undefined,
    freshMs: settings.cache.freshSeconds * 1000,
    sweepMs: settings.catalogue.sweepSeconds * 1000,
    label: site.label,
    onProgress: ({ syncedAt }) => {
      if (syncedAt) entry.syncedAt = syncedAt;
    },
  });
  entry.stop = sync.stop;
  return catalogue;
}

function pacerOf(backend: string, callsPerSecond: number) {
  let pace = pacers.get(backend);
  if (!pace) {
    const pool = databasePool();
    pace = createBackendPacer(backend, callsPerSecond, pool ? { pool } : { dir: getSettings().catalogue.dir });
    pacers.set(backend, pace);
  }
  return pace;
}

/**
 * Stops at once the syncs of sites that a reload of the sites file removed or changed: no backend call for
 * them after it (a changed site starts again with its new settings). Resolves once they have stopped.
 */
export async function retireCatalogues(sites: readonly SiteSettings[]): Promise<void> {
  for (const site of sites) retired.add(site);
  const keys = new Set(sites.map((site) => site.key));
  const stopping: Promise<void>[] = [];
  for (const [file, entry] of open) {
    if (!keys.has(entry.site)) continue;
    open.delete(file);
    closingLater.add(entry.catalogue);
    const close = () => closingLater.delete(entry.catalogue) && entry.catalogue.close();
    stopping.push(
      entry
        .stop()
        .catch((error: Error) => console.warn(`Catalogue of ${entry.label}: sync not stopped cleanly, ${error.message}`))
        .then(() => void setTimeout(close, RETIRED_CLOSE_MS).unref()),
    );
  }
  await Promise.all(stopping);
}

/** The open catalogues, for the metrics: each site's label, size and last sync. */
export async function catalogueStatus() {
  const found = await Promise.all(
    [...open.values()].map(async ({ catalogue, syncedAt, label }) => {
      // A catalogue database that is away leaves its counts out, not the whole scrape.
      const count = await catalogue.count().catch(() => undefined);
      return count && { label, ...count, syncedAt };
    }),
  );
  return found.filter((status) => status !== undefined);
}

/** Stops every sync and closes the files (shutdown, and tests). */
export async function closeCatalogues() {
  const all = [...open.values()];
  open.clear();
  await Promise.all(all.map((entry) => entry.stop()));
  for (const entry of all) entry.catalogue.close();
  for (const catalogue of closingLater) catalogue.close();
  closingLater.clear();
  const closing = pool;
  pool = undefined;
  await closing?.end();
}
