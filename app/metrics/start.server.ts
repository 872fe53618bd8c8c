import { reportHandler } from "~/report/handler.server";
import type { CountStores } from "~/report/stores.server";
import type { Settings } from "~/site/config.server";
import { servedSites } from "~/site/sites.server";
import type { BuildRoute } from "./route-id";
import { listenForScrapes } from "./listener.server";
import { installRecorder } from "./record.server";
import { requestMetrics } from "./requests.server";
import { createSeries } from "./series.server";

/**
 * Prometheus metrics (docs/decisions/021), called by server/main.ts through the build before the sites
 * are read. With METRICS_PORT unset: undefined, no listener, and prom-client is not even loaded. Else
 * the series go behind the app's reports (record.server.ts) and the listener starts, with the operator's
 * report (app/report) beside /metrics; what the server puts in front of its own parts comes back: the
 * request middleware and the page cache's events.
 */
export async function startMetrics(settings: Settings, routes: Record<string, BuildRoute | undefined>, stores: CountStores) {
  if (!settings.metrics) return undefined;
  const client = await import("prom-client");
  const series = createSeries(client);
  installRecorder(series.recorder);
  // The operator's report beside the metrics (app/report): the sites as served now, this process's Web Vitals.
  await listenForScrapes(series.registry, settings.metrics, { "/report": reportHandler(series.registry, servedSites, stores) });
  return { ...requestMetrics(series.requestDuration, routes), pageCache: series.pageCache };
}
