import type { BuildRoute } from "./route-id";
import { installRecorder } from "./record.server";
import { requestMetrics } from "./requests.server";
import { createSeries } from "./series.server";

/**
 * Prometheus metrics (docs/decisions/021): the series, put behind the app's reports (record.server.ts).
 * Called by server/metrics-listener.ts through the build's entry module, before the sites are read, and
 * only when METRICS_PORT is set: prom-client is not even loaded otherwise. What comes back is the
 * registry, for the listener, and what the server puts in front of its own parts: the request
 * middleware and the page cache's events.
 */
export async function startSeries(routes: Record<string, BuildRoute | undefined>) {
  const client = await import("prom-client");
  const series = createSeries(client);
  installRecorder(series.recorder);
  return { registry: series.registry, ...requestMetrics(series.requestDuration, routes), pageCache: series.pageCache };
}
