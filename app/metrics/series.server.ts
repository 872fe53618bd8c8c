import type * as Prom from "prom-client";
import {
  BEACON_OUTCOMES,
  VARIANT_FORMATS,
  type CatalogueStatus,
  type FediverseQueueStatus,
  type Recorder,
  type WebVital,
} from "./record.server";

/** Every series the site exposes, and the README's Monitoring table, start with this. */
export const PREFIX = "content_site_";

/** The histogram of each Web Vital, after PREFIX (the operator's report reads them by these names). */
export const WEB_VITAL_SERIES: Record<WebVital, string> = {
  LCP: "web_vitals_lcp_seconds",
  FCP: "web_vitals_fcp_seconds",
  TTFB: "web_vitals_ttfb_seconds",
  INP: "web_vitals_inp_seconds",
  CLS: "web_vitals_cls",
};

/** What the page cache (server/page-cache.ts) reports; `site` is the answering site's label. */
export type PageCacheEvents = {
  hit(site: string): void;
  /** An HTML page asked for that was not in memory, so it was rendered. */
  miss(site: string): void;
  store(site: string): void;
  evicted(): void;
  watchBytes(bytes: () => number): void;
};

/**
 * The series, on a registry of their own, with prom-client's process defaults (event-loop lag, heap,
 * GC, CPU, file descriptors, resident memory). Counters whose labels come from fixed sets alone start at 0, so that a
 * rate over them exists before the first event.
 */
export function createSeries(client: typeof Prom) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` rejects; nodejs_active_handles and
  // nodejs_active_requests (by type) say the same.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
    registry.removeSingleMetric(name);
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new client.Counter<L>({ name: PREFIX + name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new client.Histogram<L>({ name: PREFIX + name, help, labelNames, buckets, registers });
  /** A gauge read at each scrape from where the value lives. */
  const watched = (name: string, help: string) => {
    let read = () => 0;
    new client.Gauge({
      name: PREFIX + name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
    return (source: () => number) => (read = source);
  };
  const gauge = (name: string, help: string) => new client.Gauge({ name: PREFIX + name, help, registers });

  const requestDuration = histogram(
    "http_request_duration_seconds",
    "Time to answer a request, by site, route (Remix route id, or static, health, guard) and status class.",
    ["site", "route", "status_class"],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );

  const pageHits = counter("page_cache_hits_total", "Pages answered from the in-process page cache.", ["site"]);
  const pageMisses = counter("page_cache_misses_total", "HTML pages not in the page cache, rendered instead.", [
    "site",
  ]);
  const pageStores = counter("page_cache_stores_total", "Rendered pages kept in the page cache.", ["site"]);
  const pageEvictions = counter(
    "page_cache_evictions_total",
    "Pages dropped from the page cache to stay within its size bound.",
  );
  const pageBytes = watched("page_cache_bytes", "Bytes the page cache holds, all encodings of every page.");
  const pageCache: PageCacheEvents = {
    hit: (site) => pageHits.inc({ site }),
    miss: (site) => pageMisses.inc({ site }),
    store: (site) => pageStores.inc({ site }),
    evicted: () => pageEvictions.inc(),
    watchBytes: pageBytes,
  };

  const backendCalls = counter(
    "backend_calls_total",
    "Calls to the hosted blog backend (a retry inside one call included), by outcome.",
    ["site", "function", "outcome"],
  );
  const backendDuration = histogram(
    "backend_call_duration_seconds",
    "Time a call to the hosted blog backend took, whatever its outcome.",
    ["site", "function"],
    [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  const staleReplies = counter(
    "backend_stale_replies_total",
    "Reads of backend content older than CACHE_FRESH_SECONDS, by why.",
    ["site", "reason"],
  );
  const joinedCalls = counter(
    "backend_joined_calls_total",
    "Reads that waited for a backend call already in flight instead of making another.",
    ["site"],
  );

  const imageFetches = counter("image_source_fetches_total", "Fetches of remote image sources, by outcome.", [
    "outcome",
  ]);
  const variantsMade = counter("image_variants_made_total", "Image copies resized and encoded (not found on disk).", [
    "format",
  ]);
  const diskHits = counter("image_disk_cache_hits_total", "Image copies read from the disk cache.");
  const diskBytes = watched(
    "image_disk_cache_bytes",
    "Bytes of image copies in IMAGE_CACHE_DIR, as this process counts them.",
  );
  const deadLinks = watched("image_dead_links", "Image sources remembered as dead (shown as no image for 15 minutes).");

  const sites = gauge("sites", "Sites this process serves.");
  const reloads = counter("sites_reloads_total", "Reloads of the sites file on SIGHUP, by result.", ["result"]);
  const lastReload = gauge(
    "sites_last_reload_success_timestamp_seconds",
    "When the sites file was last read with success (at start, or on SIGHUP).",
  );
  const lastReloadOk = gauge(
    "sites_last_reload_successful",
    "1 when the last reading of the sites file applied, 0 when it had problems.",
  );

  const searches = counter(
    "search_requests_total",
    "Searches made on the results page, by outcome (found, none, failed).",
    ["site", "outcome"],
  );
  const searchDuration = histogram(
    "search_duration_seconds",
    "Time the catalogue took to answer one search (count, ranking and snippets).",
    ["site"],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  );
  let catalogues: () => Promise<CatalogueStatus[]> = async () => [];
  const catalogueGauge = (
    name: string,
    help: string,
    value: (status: CatalogueStatus, now: number) => number | undefined,
  ) =>
    new client.Gauge({
      name: PREFIX + name,
      help,
      labelNames: ["site"],
      registers,
      async collect() {
        this.reset();
        const now = Date.now();
        for (const status of await catalogues()) {
          const found = value(status, now);
          if (found !== undefined) this.set({ site: status.label }, found);
        }
      },
    });
  catalogueGauge(
    "catalog_articles",
    "Articles in the site's catalogue (searchable by their list entry at least).",
    (status) => status.articles,
  );
  catalogueGauge(
    "catalog_articles_with_body",
    "Articles of the catalogue whose body is searchable too.",
    (status) => status.withBody,
  );
  catalogueGauge(
    "catalog_sync_lag_seconds",
    "Time since the catalogue's sync last read the site's list (the newest articles) successfully.",
    (status, now) => (status.syncedAt ? (now - status.syncedAt) / 1000 : undefined),
  );

  // Readers' Web Vitals (app/vitals, docs/decisions/047): buckets around each metric's "good" and "poor"
  // thresholds (LCP 2.5 s and 4 s, FCP 1.8 s and 3 s, TTFB 0.8 s and 1.8 s, INP 200 ms and 500 ms, CLS 0.1 and 0.25).
  const vital = (name: string, what: string, buckets: number[]) =>
    histogram(
      name,
      `${what} of the pages readers saw, as their browsers measured it, by site and route template.`,
      ["site", "route"],
      buckets,
    );
  const webVitals: Record<WebVital, Prom.Histogram<"site" | "route">> = {
    LCP: vital(WEB_VITAL_SERIES.LCP, "Largest Contentful Paint", [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10]),
    FCP: vital(WEB_VITAL_SERIES.FCP, "First Contentful Paint", [0.25, 0.5, 1, 1.5, 1.8, 2.5, 3, 4, 6, 10]),
    TTFB: vital(WEB_VITAL_SERIES.TTFB, "Time to First Byte", [0.05, 0.1, 0.2, 0.4, 0.8, 1.2, 1.8, 3, 5, 10]),
    INP: vital(WEB_VITAL_SERIES.INP, "Interaction to Next Paint", [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2]),
    CLS: vital(WEB_VITAL_SERIES.CLS, "Cumulative Layout Shift (a score)", [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1]),
  };
  const poorElements = counter(
    "web_vitals_poor_elements_total",
    "Reports of LCP, INP or CLS beyond good, by the element or interaction target responsible (a bounded set, then other).",
    ["site", "route", "metric", "element"],
  );
  const beacons = counter("beacons_total", "Requests to the beacon endpoint, by what became of them.", ["outcome"]);
  const fediverseDeliveries = counter(
    "fediverse_deliveries_total",
    "Tries to deliver an activity to a follower's server (app/fediverse), by what became of them.",
    ["site", "outcome"],
  );
  let fediverseQueues: () => Promise<FediverseQueueStatus[]> = async () => [];
  new client.Gauge({
    name: `${PREFIX}fediverse_queue_messages`,
    help: "Deliveries waiting in a followable site's queue (not being sent at the moment).",
    labelNames: ["site"],
    registers,
    async collect() {
      this.reset();
      for (const { label, queued } of await fediverseQueues().catch(() => [])) this.set({ site: label }, queued);
    },
  });

  for (const outcome of BEACON_OUTCOMES) beacons.inc({ outcome }, 0);
  for (const outcome of ["ok", "refused", "unavailable", "too_large", "not_an_image"]) imageFetches.inc({ outcome }, 0);
  for (const format of VARIANT_FORMATS) variantsMade.inc({ format }, 0);
  for (const result of ["ok", "failed"]) reloads.inc({ result }, 0);

  const recorder: Recorder = {
    backendCall(site, fn, outcome, seconds) {
      backendCalls.inc({ site, function: fn, outcome });
      backendDuration.observe({ site, function: fn }, seconds);
    },
    staleReply: (site, reason) => staleReplies.inc({ site, reason }),
    joinedCall: (site) => joinedCalls.inc({ site }),
    imageFetch: (outcome) => imageFetches.inc({ outcome }),
    variantMade: (format) => variantsMade.inc({ format }),
    imageDiskHit: () => diskHits.inc(),
    watchImages(sizes) {
      diskBytes(sizes.diskBytes);
      deadLinks(sizes.deadLinks);
    },
    sitesLoaded(count, reload) {
      sites.set(count);
      if (reload) reloads.inc({ result: "ok" });
      lastReload.setToCurrentTime();
      lastReloadOk.set(1);
    },
    sitesReloadFailed() {
      reloads.inc({ result: "failed" });
      lastReloadOk.set(0);
    },
    searchRequest(site, outcome, seconds) {
      searches.inc({ site, outcome });
      searchDuration.observe({ site }, seconds);
    },
    watchCatalogues(status) {
      catalogues = status;
    },
    webVital(site, route, metric, value, element) {
      webVitals[metric].observe({ site, route }, value);
      if (element !== undefined) poorElements.inc({ site, route, metric, element });
    },
    beacon: (outcome) => beacons.inc({ outcome }),
    fediverseDelivery: (site, outcome) => fediverseDeliveries.inc({ site, outcome }),
    watchFediverseQueues(status) {
      fediverseQueues = status;
    },
  };
  return { registry, recorder, requestDuration, pageCache };
}
