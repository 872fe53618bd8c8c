import type { ImageFormat } from "~/images/image-variants";

/**
 * What the app reports to the metrics (docs/decisions/021). Every function does nothing until
 * startMetrics (start.server.ts) puts the Prometheus series behind them, so with METRICS_PORT unset a
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

export type Recorder = {
  backendCall(site: string, fn: BackendFunction, outcome: BackendOutcome, seconds: number): void;
  staleReply(site: string, reason: StaleReason): void;
  /** A reader that waited for a backend call another reader had started, instead of making its own. */
  joinedCall(site: string): void;
  imageFetch(outcome: ImageFetchOutcome): void;
  variantMade(format: ImageFormat): void;
  imageDiskHit(): void;
  /** Where the image gauges read their values at each scrape. */
  watchImages(sizes: { diskBytes: () => number; deadLinks: () => number }): void;
  /** The sites in service: at start (`reload` false) and after a reload of the sites file that applied. */
  sitesLoaded(count: number, reload: boolean): void;
  sitesReloadFailed(): void;
  searchRequest(site: string, outcome: SearchOutcome, seconds: number): void;
  /** Where the catalogue gauges read their values at each scrape. */
  watchCatalogues(status: () => Promise<CatalogueStatus[]>): void;
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
};

export const metrics: Recorder = { ...off };

export function installRecorder(recorder: Recorder) {
  Object.assign(metrics, recorder);
}
