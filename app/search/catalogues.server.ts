import type pg from "pg";
import type { BlogSource } from "~/blog/source.server";
import { storeFile, storeName } from "~/database/store-files";
import { metrics } from "~/metrics/record.server";
import type { SiteSettings } from "~/site/config.server";
import type { Catalogue } from "./catalogue";
import { createBackendPacer } from "./backend-pace.server";
import { openPostgresCatalogue } from "./pg-catalogue.server";
import { openSqliteCatalogue } from "./sqlite-catalogue.server";
import { startSync } from "./sync.server";

/**
 * The catalogues of the process's sites, one per site and domain, each opened when first asked for with its
 * sync started. Its file is named by where the articles come from (app/database/store-files.ts). With a
 * catalogue database (`pool`), the catalogues are in PostgreSQL instead, under that same name, shared by
 * every origin that uses the database (docs/decisions/036). Made once, by the site services
 * (app/services), which hand each page the catalogue of its site.
 */

export type CatalogueSettings = {
  /** CATALOGUE_DIR: the SQLite files, and the backends' shared pace without a database. */
  dir: string;
  /** CATALOGUE_SYNC: whether a backend's site syncs its catalogue by calls of its own. */
  sync: boolean;
  callsPerSecond: number;
  sweepSeconds: number;
  /** CACHE_FRESH_SECONDS: how often a sync reads the list again. */
  freshSeconds: number;
};

type Open = { catalogue: Catalogue; stop: () => Promise<void>; syncedAt?: number; label: string; site: string };

/**
 * Domains one site may have catalogues for. A site on a backend without SITE_DOMAIN takes the domain from
 * the request's host: without a bound, requests with made-up hosts (when ALLOWED_HOSTS is unset) would each
 * open a file. Beyond it, such a host's search answers 503 and its read next comes from the list.
 */
export const MAX_DOMAINS_PER_SITE = 16;

/** A catalogue not opened on purpose (MAX_DOMAINS_PER_SITE): nothing to log each time. */
export class CatalogueRefused extends Error {}

/** The stores of retired sites are closed this long after their sync stopped: a request in flight may still read one. */
const RETIRED_CLOSE_MS = 60_000;

export type CatalogueShelf = ReturnType<typeof createCatalogueShelf>;

export function createCatalogueShelf(settings: CatalogueSettings, pool: pg.Pool | undefined) {
  const open = new Map<string, Open>();
  /**
   * Sites a reload of the sites file removed or changed (their objects: a changed site is a new one): a request
   * still in flight for one of them opens no catalogue, and so starts no sync, anew.
   */
  const retired = new WeakSet<SiteSettings>();
  const closingLater = new Set<Catalogue>();
  /** One pacer per backend: the sites it serves share CATALOGUE_CALLS_PER_SECOND, with the other processes (./backend-pace.server.ts). */
  const pacers = new Map<string, () => Promise<void>>();

  const fileOf = (site: SiteSettings, domain: string) => storeFile(settings.dir, site, domain);
  /** True when a sync of its own keeps the site's catalogue in step: not for a backend's site with CATALOGUE_SYNC=off. */
  const syncs = (site: SiteSettings) => !site.blogApi || settings.sync;

  const pacerOf = (backend: string) => {
    let pace = pacers.get(backend);
    if (!pace) {
      pace = createBackendPacer(backend, settings.callsPerSecond, pool ? { pool } : { dir: settings.dir });
      pacers.set(backend, pace);
    }
    return pace;
  };

  /** The open catalogues, for the metrics: each site's label, size and last sync. */
  const status = async () => {
    const found = await Promise.all(
      [...open.values()].map(async ({ catalogue, syncedAt, label }) => {
        // A catalogue database that is away leaves its counts out, not the whole scrape.
        const count = await catalogue.count().catch(() => undefined);
        return count && { label, ...count, syncedAt };
      }),
    );
    return found.filter((entry) => entry !== undefined);
  };

  return {
    fileOf,
    syncs,
    /** The site's catalogue for a domain, opened (and its sync started) on first use; throws when it cannot be. */
    of(site: SiteSettings, domain: string, source: BlogSource): Catalogue {
      const file = fileOf(site, domain);
      const known = open.get(file);
      if (known) return known.catalogue;
      if (retired.has(site))
        throw new CatalogueRefused(`${site.label}: no catalogue opened, the site was removed or changed by a reload`);
      if ([...open.values()].filter((entry) => entry.site === site.key).length >= MAX_DOMAINS_PER_SITE) {
        throw new CatalogueRefused(
          `${site.label}: no catalogue for ${domain}, the site has ${MAX_DOMAINS_PER_SITE} domains already (set SITE_DOMAIN)`,
        );
      }
      const catalogue = pool ? openPostgresCatalogue(pool, storeName(file)) : openSqliteCatalogue(file);
      const entry: Open = { catalogue, stop: async () => {}, label: site.label, site: site.key };
      open.set(file, entry);
      metrics.watchCatalogues(status);
      // CATALOGUE_SYNC=off: no calls of its own to a backend; what readers' requests fetch is still kept.
      if (!syncs(site)) return catalogue;
      const sync = startSync({
        catalogue,
        source,
        domain,
        // Embedded files cost nothing to read: no pacing.
        callsPerSecond: site.blogApi ? settings.callsPerSecond : Number.POSITIVE_INFINITY,
        pace: site.blogApi ? pacerOf(site.blogApi.url) : undefined,
        freshMs: settings.freshSeconds * 1000,
        sweepMs: settings.sweepSeconds * 1000,
        label: site.label,
        onProgress: ({ syncedAt }) => {
          if (syncedAt) entry.syncedAt = syncedAt;
        },
      });
      entry.stop = sync.stop;
      return catalogue;
    },

    /**
     * Stops at once the syncs of sites that a reload of the sites file removed or changed: no backend call for
     * them after it (a changed site starts again with its new settings). Resolves once they have stopped.
     */
    async retire(sites: readonly SiteSettings[]): Promise<void> {
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
            .catch((error: Error) =>
              console.warn(`Catalogue of ${entry.label}: sync not stopped cleanly, ${error.message}`),
            )
            .then(() => void setTimeout(close, RETIRED_CLOSE_MS).unref()),
        );
      }
      await Promise.all(stopping);
    },

    status,

    /** Stops every sync and closes the stores (shutdown, and tests); the pool is its owner's to end. */
    async close() {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map((entry) => entry.stop()));
      for (const entry of all) entry.catalogue.close();
      for (const catalogue of closingLater) catalogue.close();
      closingLater.clear();
    },
  };
}
