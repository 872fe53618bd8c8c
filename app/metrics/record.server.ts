/**
 * What the app reports to the metrics (docs/decisions/021). Every function does nothing until
 * startSeries (start.server.ts) puts the Prometheus series behind them, so with METRICS_PORT unset a
 * report costs one empty call and prom-client is never loaded. Label values are typed as fixed sets;
 * `site` is always a site's label (its first host in the sites file, "default" for the one site).
 */

export type BackendFunction = "list" | "details";
export type BackendOutcome = "ok" | "http_error" | "timeout" | "invalid_reply" | "refused";
/** Why a reader got a copy older than CACHE_FRESH_SECONDS: a refresh under way, or the backend failed. */
export type StaleReason = "refreshing" | "backend_failed";
/** A search that found articles, found none, or could not be made (the catalogue could not be read). */
export type SearchOutcome = "found" | "none" | "failed";
/** One site's catalogue as the metrics read it at each scrape. */
export type CatalogueStatus = { label: string; articles: number; withBody: number; syncedAt?: number };
export type ImageFetchOutcome = "ok" | "refused" | "unavailable" | "too_large" | "not_an_image";
/**
 * The formats image copies are made in, as the label values of image_variants_made_total: the same three
 * as IMAGE_FORMATS in app/images, in the same order (a test checks).
 */
export const VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
/** The Web Vitals a reader's browser reports (app/vitals). */
export type WebVital = "LCP" | "FCP" | "TTFB" | "INP" | "CLS";
/**
 * What became of a request to the beacon endpoint (app/beacon/endpoint.server.ts): counted, or why not.
 * `opted_out` is a reader whose browser sends Sec-GPC: 1 or DNT: 1.
 */
export const BEACON_OUTCOMES = [
  "counted",
  "bot",
  "opted_out",
  "prefetch",
  "rate_limited",
  "cross_site",
  "wrong_type",
  "too_large",
  "malformed",
] as const;
export type BeaconOutcome = (typeof BEACON_OUTCOMES)[number];
/**
 * What became of one try to deliver an activity to a follower's server (app/fediverse): delivered, failed
 * (to be tried again, or not), put back for a later try, or given up on after the last.
 */
export const FEDIVERSE_DELIVERY_OUTCOMES = ["delivered", "failed", "retried", "given_up"] as const;
export type FediverseDeliveryOutcome = (typeof FEDIVERSE_DELIVERY_OUTCOMES)[number];
/** One followable site's queue of deliveries as the metrics read it at each scrape. */
export type FediverseQueueStatus = { label: string; queued: number };

export type Recorder = {
  backendCall(site: string, fn: BackendFunction, outcome: BackendOutcome, seconds: number): void;
  staleReply(site: string, reason: StaleReason): void;
  /** A reader that waited for a backend call another reader had started, instead of making its own. */
  joinedCall(site: string): void;
  imageFetch(outcome: ImageFetchOutcome): void;
  variantMade(format: VariantFormat): void;
  imageDiskHit(): void;
  /** Where the image gauges read their values at each scrape. */
  watchImages(sizes: { diskBytes: () => number; deadLinks: () => number }): void;
  /** The sites in service: at start (`reload` false) and after a reload of the sites file that applied. */
  sitesLoaded(count: number, reload: boolean): void;
  sitesReloadFailed(): void;
  searchRequest(site: string, outcome: SearchOutcome, seconds: number): void;
  /** Where the catalogue gauges read their values at each scrape. */
  watchCatalogues(status: () => Promise<CatalogueStatus[]>): void;
  /**
   * One Web Vital of one page a reader saw, in seconds (CLS: its score), for the route template the page
   * was; `element` names what was responsible for a value beyond "good", from a bounded set.
   */
  webVital(site: string, route: string, metric: WebVital, value: number, element?: string): void;
  beacon(outcome: BeaconOutcome): void;
  fediverseDelivery(site: string, outcome: FediverseDeliveryOutcome): void;
  /** Where the gauge of deliveries waiting reads its values at each scrape. */
  watchFediverseQueues(status: () => Promise<FediverseQueueStatus[]>): void;
};

const off: Recorder = {
  backendCall() {},
  staleReply() {},
  joinedCall() {},
  imageFetch() {},
  variantMade() {},
  imageDiskHit() {},
  watchImages() {},
  sitesLoaded() {},
  sitesReloadFailed() {},
  searchRequest() {},
  watchCatalogues() {},
  webVital() {},
  beacon() {},
  fediverseDelivery() {},
  watchFediverseQueues() {},
};

export const metrics: Recorder = { ...off };

export function installRecorder(recorder: Recorder) {
  Object.assign(metrics, recorder);
}
