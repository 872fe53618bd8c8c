import { createSwrCache } from "~/blog/cache.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { createFileSource } from "~/blog/file-source.server";
import { createHttpSource } from "~/blog/http-source.server";
import type { BlogSource } from "~/blog/source.server";
import type { ArticleView, BlogListPage } from "~/blog/types";
import { measuredSource } from "~/blog/measured-source.server";
import type { Catalogue } from "~/search/catalogue";
import { catalogueFile, catalogueName, catalogueOf, closeCatalogues, databasePool, retireCatalogues } from "~/search/catalogues.server";
import { createCounter, type Counter } from "~/counts/counter.server";
import { openPostgresCounts } from "~/counts/pg-counts.server";
import { readingFigures, type ReadingFiguresOf } from "~/counts/reading.server";
import { openSqliteCounts } from "~/counts/sqlite-counts.server";
import { getSettings, type SiteSettings } from "./config.server";
import { domainFromHost } from "./domain";

/**
 * What serves each site, wired in one place: its source of articles (its hosted backend when BLOG_API_URL
 * is set, its embedded articles otherwise), the process's caches in front of it, its catalogue (the
 * store, opened with its sync on first use) and its daily counts beside the catalogue, in the same file
 * or database. The blog, search and the counts each take what they need from here, not through one another.
 *
 * A site's services are kept by site object: a site changed or removed by a reload of the sites file is a
 * new object or none, and its source goes with the old one. The caches are the process's, one memory
 * budget however many sites; entries are keyed by the site's key, and a reload drops those of changed sites.
 */

export type SiteCaches = ReturnType<typeof createCaches>;

export type SiteServices = {
  source: BlogSource;
  caches: SiteCaches;
  /** The site's catalogue for a domain, opened (and its sync started) on first use; throws when it cannot be. */
  catalogue: (domain: string) => Catalogue;
  /** The counter of the site's catalogue for a domain (app/counts), opened with it; throws when it cannot be. */
  counts: (domain: string) => Counter;
  /** What its counts say of reading (most read, read to the end), from the same store; throws as `counts`. */
  reading: (domain: string) => ReadingFiguresOf;
};

const services = new WeakMap<SiteSettings, SiteServices>();
let caches: SiteCaches | undefined;
/** One counter and its figures per catalogue, by its file: bounded as the catalogues are (MAX_DOMAINS_PER_SITE). */
const counters = new Map<string, { counter: Counter; reading: ReadingFiguresOf }>();

function createCaches() {
  const { cache } = getSettings();
  const timing = {
    freshMs: cache.freshSeconds * 1000,
    staleWhileRevalidateMs: Math.min(cache.staleSeconds, 600) * 1000,
    staleIfErrorMs: cache.staleSeconds * 1000,
  };
  return {
    lists: createSwrCache<BlogListPage>(timing),
    // An article whose reply does not fit is asked for again once a fresh period, not at every request.
    articles: createSwrCache<ArticleView | null>({ ...timing, keepFailure: (error) => error instanceof BlogUnavailableError && error.ofContent }),
    dates: createSwrCache<{ iso?: string } | null>(timing),
  };
}

export function servicesOf(site: SiteSettings): SiteServices {
  let found = services.get(site);
  if (found) return found;
  const measured = site.blogApi
    ? measuredSource(site.label, createHttpSource({ baseUrl: site.blogApi.url, token: site.blogApi.token, timeoutMs: site.blogApi.timeoutMs }))
    : createFileSource(site.contentDir);
  // With several sites, the log says whose backend failed.
  const source = site.hosts.length > 0 ? namedSource(site.label, measured) : measured;
  const catalogue = (domain: string) => catalogueOf(site, domain, source);
  const countsOf = (domain: string) => {
    catalogue(domain);
    const file = catalogueFile(site, domain);
    let opened = counters.get(file);
    if (!opened) {
      const database = databasePool();
      const store = database ? openPostgresCounts(database, catalogueName(file)) : openSqliteCounts(file);
      counters.set(file, (opened = { counter: createCounter(store, catalogueName(file)), reading: readingFigures(store) }));
    }
    return opened;
  };
  found = { source, caches: (caches ??= createCaches()), catalogue, counts: (domain) => countsOf(domain).counter, reading: (domain) => countsOf(domain).reading };
  services.set(site, found);
  return found;
}

function namedSource(name: string, source: BlogSource): BlogSource {
  const named = (error: unknown) => {
    throw error instanceof BlogUnavailableError ? new BlogUnavailableError(`${name}: ${error.message}`, { cause: error, kind: error.kind, ofContent: error.ofContent }) : error;
  };
  return {
    listPage: (domain, page) => source.listPage(domain, page).catch(named),
    article: (slug) => source.article(slug).catch(named),
  };
}

/** Drops the cached content of sites that a reload changed or removed, by their keys. */
export function forgetSiteContent(siteKeys: string[]) {
  const prefixes = siteKeys.map((key) => `${key}:`);
  for (const cache of Object.values(caches ?? {})) cache.forget(prefixes);
}

/** Stops the catalogue syncs of sites that a reload removed or changed, by their objects; resolves once stopped. */
export function retireSites(sites: readonly SiteSettings[]): Promise<void> {
  return retireCatalogues(sites);
}

/** The site domain for backend queries and cache keys: the site's SITE_DOMAIN, else the request's host. */
export function siteDomain(request: Request, site: SiteSettings): string {
  return siteDomainOfHost(site, new URL(request.url).host);
}

/** The same from a Host header (the beacon's endpoint has no Request). */
export function siteDomainOfHost(site: SiteSettings, host: string): string {
  return site.siteDomain ?? domainFromHost(host) ?? "localhost";
}

/**
 * Opens the site's catalogue and starts its sync as the server starts, when the site's domain does not
 * depend on the request (embedded articles, or SITE_DOMAIN set); otherwise the first request does.
 */
export function startCatalogue(site: SiteSettings) {
  if (site.blogApi && !site.siteDomain) return;
  try {
    servicesOf(site).catalogue(site.siteDomain ?? "localhost");
  } catch (error) {
    console.error(`Catalogue of ${site.label} not opened:`, error);
  }
}

/** The site's catalogue: every article, searchable (app/search). Throws when its file cannot be opened. */
export function getCatalogue(request: Request, site: SiteSettings): Catalogue {
  return servicesOf(site).catalogue(siteDomain(request, site));
}

/** At a stop: writes the counts not written yet, then stops the catalogues' syncs and closes their stores. */
export async function closeSiteServices() {
  const all = [...counters.values()].map((opened) => opened.counter);
  counters.clear();
  await Promise.all(all.map((counter) => counter.close().catch((error: Error) => console.error(`Counts not closed: ${error.message}`))));
  await closeCatalogues();
}
