import { setImmediate as nextTurn } from "node:timers/promises";
import type pg from "pg";
import { createBlog, type Blog, type BlogCaches } from "~/blog/blog.server";
import { createSwrCache } from "~/blog/cache.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { createFileSource } from "~/blog/file-source.server";
import { createHttpSource } from "~/blog/http-source.server";
import type { BlogSource } from "~/blog/source.server";
import type { ArticleView, BlogListPage } from "~/blog/types";
import { createCounter, type Counter } from "~/counts/counter.server";
import { openPostgresCounts } from "~/counts/pg-counts.server";
import { NONE, readingFigures, type ReadingFigures, type ReadingFiguresOf } from "~/counts/reading.server";
import { openSqliteCounts } from "~/counts/sqlite-counts.server";
import { createPool, prepareDatabase } from "~/database/postgres.server";
import { storeName } from "~/database/store-files";
import { measuredSource } from "~/blog/measured-source.server";
import type { Catalogue } from "~/search/catalogue";
import { CatalogueRefused, createCatalogueShelf } from "~/search/catalogues.server";
import { catalogueArticle, catalogueEntry } from "~/search/sync.server";
import type { Settings, SiteSettings } from "~/site/config.server";
import { httpCachePolicy, type HttpCache } from "~/document/http-cache.server";
import { startImageService, type ImageService } from "~/images/image-service.server";
import { pageImages, type PageImages } from "~/images/images.server";
import { domainFromHost } from "~/site/domain";
import { metrics } from "~/metrics/record.server";
import type { SiteFederation } from "~/fediverse/endpoint.server";
import { createSiteFederation, SOFTWARE } from "~/fediverse/federation.server";
import { outgoingRule } from "~/fediverse/outgoing";
import { openPostgresKv } from "~/fediverse/pg-kv.server";
import { openSqliteKv } from "~/fediverse/sqlite-kv.server";
import { openPostgresQueue } from "~/fediverse/pg-queue.server";
import { openSqliteQueue } from "~/fediverse/sqlite-queue.server";

/**
 * What serves each site, wired in one place and handed to the code that uses it: its source of articles
 * (its hosted backend when BLOG_API_URL is set, its embedded articles otherwise), the process's caches in
 * front of it, its catalogue (the store, opened with its sync on first use) and its daily counts beside the
 * catalogue, in the same file or database. server/main.ts makes the registry once from the settings and
 * puts each request's site services in the load context (app/services/context.server.ts); the blog,
 * search, the counts and the beacon take what they use as arguments and never look it up.
 *
 * A site's services are kept by site object: a site changed or removed by a reload of the sites file is a
 * new object or none, and its source goes with the old one. The caches are the process's, one memory
 * budget however many sites; entries are keyed by the site's key, and a reload drops those of changed sites.
 */

export type SiteServices = {
  site: SiteSettings;
  blog: Blog;
  /** The process's images: the pages' signed addresses, and the copies served at /img/. */
  images: PageImages & Pick<ImageService, "respond">;
  /** Cache-Control for each kind of answer, from the HTML_* settings. */
  httpCache: HttpCache;
  /** The site domain for backend queries and cache keys: the site's SITE_DOMAIN, else the request's host. */
  domainOf(request: Request): string;
  /** The same from a Host header (the beacon's endpoint has no Request). */
  domainOfHost(host: string): string;
  /** The site's catalogue for a domain, opened (and its sync started) on first use; throws when it cannot be. */
  catalogue(domain: string): Catalogue;
  /** True when a sync of its own fills the catalogue: not for a backend's site with CATALOGUE_SYNC=off. */
  catalogueSyncs: boolean;
  /** The counter of the site's catalogue for a domain (app/counts), opened with it; throws when it cannot be. */
  counter(domain: string): Counter;
  /** What its counts say of reading (most read, read to the end): none with ANALYTICS=off or without counts; never fails. */
  reading(domain: string): Promise<ReadingFigures>;
  /** The site as an actor of the social web (app/fediverse), made on first use; none unless FEDIVERSE=on. */
  fediverse: (SiteFederation & { start(): void }) | undefined;
};

export type ServiceRegistry = ReturnType<typeof createServiceRegistry>;

/** A retired site's federation stores are closed this long after it stopped: a request in flight may still use one. */
const RETIRED_CLOSE_MS = 60_000;

export function createServiceRegistry(settings: Settings) {
  const timing = {
    freshMs: settings.cache.freshSeconds * 1000,
    staleWhileRevalidateMs: Math.min(settings.cache.staleSeconds, 600) * 1000,
    staleIfErrorMs: settings.cache.staleSeconds * 1000,
  };
  const caches: BlogCaches = {
    lists: createSwrCache<BlogListPage>(timing),
    // An article whose reply does not fit is asked for again once a fresh period, not at every request.
    articles: createSwrCache<ArticleView | null>({
      ...timing,
      keepFailure: (error) => error instanceof BlogUnavailableError && error.ofContent,
    }),
    dates: createSwrCache<{ iso?: string } | null>(timing),
  };
  const database = settings.catalogue.database;
  /** The process's pool to the catalogue database, when there is one: the catalogues and the counts share it. */
  const pool: pg.Pool | undefined = database ? createPool(database) : undefined;
  const shelf = createCatalogueShelf({ ...settings.catalogue, freshSeconds: settings.cache.freshSeconds }, pool);
  /** One counter and its figures per catalogue, by its file: bounded as the catalogues are (MAX_DOMAINS_PER_SITE). */
  const counters = new Map<string, { counter: Counter; reading: ReadingFiguresOf }>();
  const services = new WeakMap<SiteSettings, SiteServices>();
  /** The federation state stores opened in SQLite files, closed at a stop; the deliveries and the publishers stop first. */
  const federationStores: { close(): void }[] = [];
  const federationsStop = new AbortController();
  /** Each started site's own stop, for a reload that removes or changes it, and its SQLite stores. */
  const federationRuns = new WeakMap<
    SiteSettings,
    { stop: AbortController; stores: { close(): void }[]; queue?: unknown }
  >();
  /** Each followable site's queue of deliveries, by its label, for the metrics' gauge. */
  const federationQueues = new Map<string, { getDepth(): Promise<{ queued: number }> }>();
  const queueDepths = () =>
    Promise.all(
      [...federationQueues].map(async ([label, queue]) => ({ label, queued: (await queue.getDepth()).queued })),
    );
  /** What goes wrong in deliveries and the publishers, in one line a minute at most. */
  let federationLogged = 0;
  const federationError = (error: unknown) => {
    if (Date.now() - federationLogged < 60_000) return;
    federationLogged = Date.now();
    console.warn(`Fediverse: ${error instanceof Error ? error.message : String(error)}`);
  };
  const outgoing = outgoingRule(settings.fediverseHosts, `${SOFTWARE.name}/${SOFTWARE.version}`);
  const httpCache = httpCachePolicy(settings.httpCache);
  /** One image service for the process, set up on first use (its secret, disk cache and dead links). */
  let imageService: ImageService | undefined;
  const imageServiceOf = () => (imageService ??= startImageService(settings.images));
  const images: SiteServices["images"] = {
    ...pageImages({ url: (...args) => imageServiceOf().url(...args) }),
    respond: (rest) => imageServiceOf().respond(rest),
  };

  const servicesOf = (site: SiteSettings): SiteServices => {
    const known = services.get(site);
    if (known) return known;
    const measured = site.blogApi
      ? measuredSource(
          site.label,
          createHttpSource({ baseUrl: site.blogApi.url, token: site.blogApi.token, timeoutMs: site.blogApi.timeoutMs }),
        )
      : createFileSource(site.contentDir);
    // With several sites, the log says whose backend failed.
    const source = site.hosts.length > 0 ? namedSource(site.label, measured) : measured;
    const catalogue = (domain: string) => shelf.of(site, domain, source);
    const countsOf = (domain: string) => {
      catalogue(domain);
      const file = shelf.fileOf(site, domain);
      let opened = counters.get(file);
      if (!opened) {
        const store = pool ? openPostgresCounts(pool, storeName(file)) : openSqliteCounts(file);
        counters.set(
          file,
          (opened = { counter: createCounter(store, storeName(file)), reading: readingFigures(store) }),
        );
      }
      return opened;
    };
    /** What a reader's request fetched anyway goes into the catalogue on the way (app/search), after the page's turn. */
    const keep = (domain: string, write: (store: Catalogue) => Promise<unknown>) => {
      nextTurn()
        .then(() => write(catalogue(domain)))
        .catch((error: unknown) => {
          if (!(error instanceof CatalogueRefused)) console.error("Catalogue not updated:", error);
        });
    };
    const domainOfHost = (host: string) => site.siteDomain ?? domainFromHost(host) ?? "localhost";
    const found: SiteServices = {
      fediverse: undefined,
      site,
      blog: createBlog(
        {
          source,
          caches,
          keeper: {
            listed: (domain, entries) => keep(domain, (store) => store.putEntries(entries.map(catalogueEntry))),
            fetched: (domain, slug, article) =>
              keep(domain, (store) => store.putArticle(catalogueArticle(slug, article))),
            knownDates: (domain, slugs) => Promise.resolve().then(() => catalogue(domain).dates(slugs)),
          },
          images,
        },
        site,
      ),
      images,
      httpCache,
      domainOf: (request) => domainOfHost(new URL(request.url).host),
      domainOfHost,
      catalogue,
      catalogueSyncs: shelf.syncs(site),
      counter: (domain) => countsOf(domain).counter,
      async reading(domain) {
        if (!settings.analytics) return NONE;
        try {
          return await countsOf(domain).reading();
        } catch {
          return NONE;
        }
      },
    };
    found.fediverse = federationOf(site, found);
    services.set(site, found);
    return found;
  };

  /**
   * A followable site's federation, in the store beside its catalogue: made on its first request, or at the
   * start (start below), which also sets its deliveries and its publisher going.
   */
  const federationOf = (site: SiteSettings, of: SiteServices): SiteServices["fediverse"] => {
    const { siteUrl, fediverse } = site;
    if (!siteUrl || !fediverse) return undefined;
    let made: ReturnType<typeof createSiteFederation> | undefined;
    let started = false;
    const run = { stop: new AbortController(), stores: [] as { close(): void }[], queue: undefined as unknown };
    federationRuns.set(site, run);
    const make = () => {
      if (made) return made;
      const domain = of.domainOfHost(new URL(siteUrl).host);
      of.catalogue(domain);
      const file = shelf.fileOf(site, domain);
      let kv, queue;
      if (pool) {
        kv = openPostgresKv(pool, storeName(file));
        queue = openPostgresQueue(pool, storeName(file), { onError: federationError });
      } else {
        const stores = [(kv = openSqliteKv(file)), (queue = openSqliteQueue(file, { onError: federationError }))];
        federationStores.push(...stores);
        run.stores.push(...stores);
      }
      federationQueues.set(site.label, queue);
      run.queue = queue;
      // Told at each site's first use, as the catalogues' gauges are: the metrics are installed by then.
      metrics.watchFediverseQueues(queueDepths);
      return (made = createSiteFederation({
        site: { ...site, siteUrl, fediverse },
        kv,
        queue,
        blog: of.blog,
        domain,
        outgoing,
        stillListed: (slug) => Promise.resolve().then(() => of.catalogue(domain).has(slug)),
        everyMs: Math.max(1, settings.cache.freshSeconds) * 1000,
        count: (kind, n, day) => of.counter(domain).site(kind, n, day),
        onError: federationError,
      }));
    };
    return {
      // A site retired before its federation was made makes none: the request goes on to the pages.
      answer: (request) =>
        run.stop.signal.aborted && !made
          ? Promise.resolve(undefined)
          : Promise.resolve().then(() => make().answer(request)),
      start() {
        if (started) return;
        started = true;
        make().start(AbortSignal.any([federationsStop.signal, run.stop.signal]));
      },
    };
  };

  return {
    /** Where the sites' counts are kept, for the operator's report (app/report). */
    countStores: { dir: settings.catalogue.dir, pool },

    /** A site's services, made on first use and kept while its object lives. */
    of: servicesOf,

    /**
     * At start, before any site opens its catalogue: with a catalogue database, connects to it and brings its
     * schema up to date. Answers the one-line reason when it cannot be used (the server then stops).
     */
    async prepare(): Promise<{ ok: true } | { ok: false; reason: string }> {
      if (!database || !pool) return { ok: true };
      const prepared = await prepareDatabase(pool, database.url);
      if (prepared.ok && prepared.applied.length > 0)
        console.log(`Catalogue database: schema migrated to version ${prepared.applied.at(-1)}`);
      return prepared.ok ? { ok: true } : prepared;
    },

    /**
     * Opens the site's catalogue and starts its sync as the server starts, when the site's domain does not
     * depend on the request (embedded articles, or SITE_DOMAIN set); otherwise the first request does.
     */
    start(site: SiteSettings) {
      try {
        servicesOf(site).fediverse?.start();
      } catch (error) {
        console.error(`Fediverse of ${site.label} not started:`, error);
      }
      if (site.blogApi && !site.siteDomain) return;
      try {
        servicesOf(site).catalogue(site.siteDomain ?? "localhost");
      } catch (error) {
        console.error(`Catalogue of ${site.label} not opened:`, error);
      }
    },

    /** Drops the cached content of sites that a reload changed or removed, by their keys. */
    forget(siteKeys: string[]) {
      const prefixes = siteKeys.map((key) => `${key}:`);
      for (const cache of Object.values(caches)) cache.forget(prefixes);
    },

    /** Stops the catalogue syncs of sites that a reload removed or changed, by their objects; resolves once stopped. */
    retire(sites: readonly SiteSettings[]) {
      // Their deliveries and publishers stop now; their stores close once requests in flight are done.
      for (const site of sites) {
        const run = federationRuns.get(site);
        if (!run) continue;
        run.stop.abort();
        if (federationQueues.get(site.label) === run.queue) federationQueues.delete(site.label);
        const stores = run.stores.splice(0);
        setTimeout(() => {
          for (const store of stores) {
            const at = federationStores.indexOf(store);
            if (at >= 0) federationStores.splice(at, 1)[0]!.close();
          }
        }, RETIRED_CLOSE_MS).unref();
      }
      return shelf.retire(sites);
    },

    /** At a stop: writes the counts not written yet, then stops the catalogues' syncs and closes their stores. */
    async close() {
      const all = [...counters.values()].map((opened) => opened.counter);
      counters.clear();
      await Promise.all(
        all.map((counter) =>
          counter.close().catch((error: Error) => console.error(`Counts not closed: ${error.message}`)),
        ),
      );
      federationsStop.abort();
      for (const store of federationStores.splice(0)) store.close();
      await shelf.close();
      await pool?.end();
    },
  };
}

function namedSource(name: string, source: BlogSource): BlogSource {
  const named = (error: unknown) => {
    throw error instanceof BlogUnavailableError
      ? new BlogUnavailableError(`${name}: ${error.message}`, {
          cause: error,
          kind: error.kind,
          ofContent: error.ofContent,
        })
      : error;
  };
  return {
    listPage: (domain, page) => source.listPage(domain, page).catch(named),
    article: (slug) => source.article(slug).catch(named),
  };
}
