import http from "node:http";
import type { Registry } from "prom-client";
import type { startSeries } from "../app/metrics/start.server";
import type { BuildRoute } from "../app/metrics/route-id";
import type { reportHandler } from "../app/report/handler.server";
import type { CountStores } from "../app/report/stores.server";
import type { Settings } from "../app/site/config.server";
import type { servedSites } from "../app/site/sites.server";

type Page = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/**
 * The metrics' own listener: `GET /metrics` in the Prometheus text format, and the operator's pages
 * (`pages`, by path: the report), nothing else. Kept off the public port, so readers and crawlers never
 * see it, and on loopback unless METRICS_HOST says otherwise.
 */
function listenForScrapes(
  registry: Registry,
  { port, host }: { port: number; host: string },
  pages: Record<string, Page> = {},
) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const page = Object.hasOwn(pages, path) ? pages[path] : undefined;
    if (page) return void page(req, res);
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end(
        `Not Found: the metrics are at GET /metrics${Object.keys(pages)
          .map((other) => `, ${other}`)
          .join("")}\n`,
      );
      return;
    }
    registry.metrics().then(
      (body) => {
        res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (error: Error) => {
        console.error(`Metrics: ${error.message}`);
        res
          .writeHead(500, { "Content-Type": "text/plain; charset=utf-8" })
          .end("The metrics could not be collected.\n");
      },
    );
  });
  return new Promise<http.Server>((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      console.error(`The site cannot listen for metrics on ${host}:${port}: ${error.code ?? error.message}`);
      process.exit(1);
    });
    server.listen(port, host, () => {
      console.log(`Metrics on http://${host}:${port}/metrics, the report on http://${host}:${port}/report`);
      resolve(server);
    });
  });
}

/** What the metrics take from the Remix build's entry module: the series and the report live in the app's module graph. */
export type MetricsEntry = {
  startSeries: typeof startSeries;
  reportHandler: typeof reportHandler;
  servedSites: typeof servedSites;
};

/**
 * Prometheus metrics (docs/decisions/021), started by server/main.ts before the sites are read. With
 * METRICS_PORT unset: undefined, no listener, and prom-client is not even loaded. Else the series go
 * behind the app's reports and the listener starts, with the operator's report (app/report) beside
 * /metrics; what the server puts in front of its own parts comes back: the request middleware and the
 * page cache's events.
 */
export async function startMetrics(
  entry: MetricsEntry,
  settings: Settings,
  routes: Record<string, BuildRoute | undefined>,
  stores: CountStores,
) {
  if (!settings.metrics) return undefined;
  const { registry, ...parts } = await entry.startSeries(routes);
  // The operator's report beside the metrics (app/report): the sites as served now, this process's Web Vitals.
  await listenForScrapes(registry, settings.metrics, {
    "/report": entry.reportHandler(registry, entry.servedSites, stores),
  });
  return parts;
}
