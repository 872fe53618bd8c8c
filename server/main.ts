// The production server: stock middleware around the Remix handler, and little of our own (docs/decisions/014).
import type { ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals, type ServerBuild } from "@remix-run/node";
import closeWithGrace from "close-with-grace";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import { createHttpTerminator } from "http-terminator";
import pino from "pino";
import { pinoHttp } from "pino-http";
import type { Settings } from "../app/site/config.server";
import type { beaconEndpoint } from "../app/beacon/endpoint.server";
import type { fediverseEndpoint } from "../app/fediverse/endpoint.server";
import type { startSites } from "../app/site/sites.server";
import type { createServiceRegistry } from "../app/services/site-services.server";
import { errorPage } from "./error-page";
import { healthCheck, hostGuard, normalPaths, pageAddresses, readOnlyMethods } from "./guards";
import { startMetrics, type MetricsEntry } from "./metrics-listener";
import { pageCache } from "./page-cache";

// This file is bundled to build/server.js, next to the Remix server build.
const buildDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(buildDir);
const build = (await import(path.join(buildDir, "index.js"))) as ServerBuild;
installGlobals({ nativeFetch: build.future.v3_singleFetch });
// The app's own settings check: a wrong setting or sites file stops the server here with a readable list.
const entry = build.entry.module as unknown as MetricsEntry & {
  getSettings: () => Settings;
  startSites: typeof startSites;
  beaconEndpoint: typeof beaconEndpoint;
  fediverseEndpoint: typeof fediverseEndpoint;
  BEACON_PATH: string;
  createServiceRegistry: typeof createServiceRegistry;
};
const settings = entry.getSettings();
// Each site's services (its source, caches, catalogue and counts), made once from the settings and handed to
// the code that uses them: to loaders in the load context, to the beacon's endpoint (app/services).
const services = entry.createServiceRegistry(settings);
// A catalogue database (CATALOGUE_DATABASE_URL) that cannot be reached or is too old stops the server here, in one line.
const prepared = await services.prepare();
if (!prepared.ok) {
  console.error(prepared.reason);
  process.exit(1);
}
// Prometheus metrics on a listener of their own, when METRICS_PORT is set (./metrics-listener.ts, the series in app/metrics).
const metrics = await startMetrics(entry, settings, build.routes, services.countStores);
const sites = entry.startSites(settings, services);

const siteLabel = (res: ServerResponse) => (res as express.Response).locals?.site?.label as string | undefined;

const app = express();
app.disable("x-powered-by");
if (metrics) app.use(metrics.timeRequests);
app.use(healthCheck());
// One JSON line per request, no headers (no cookies or credentials); chosen over morgan by cost (README).
app.use(
  pinoHttp({
    logger: pino({ base: undefined }, pino.destination({ sync: false })),
    quietReqLogger: true,
    serializers: { req: (req) => `${req.method} ${req.url}`, res: (res) => res.statusCode },
    // With several sites, the one that answered (its first host; none for a 400 or 421).
    ...(settings.sitesFile && {
      customSuccessObject: (_req, res, line: object) => ({ ...line, site: siteLabel(res) }),
      customErrorObject: (_req, res, _error, line: object) => ({ ...line, site: siteLabel(res) }),
    }),
  }),
);
app.use(
  helmet({
    // Each page's policy lists the hashes of its own inline scripts (app/document/csp.server.ts).
    contentSecurityPolicy: false,
    // The donation link and "View on Pinterest" open new tabs that may need their opener.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    // Share images and feed pictures are shown by other sites.
    crossOriginResourcePolicy: { policy: "cross-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: settings.hstsMaxAge > 0 ? { maxAge: settings.hstsMaxAge, includeSubDomains: true } : false,
    xFrameOptions: { action: "sameorigin" },
  }),
  (_req, res, next) => {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    next();
  },
);
app.use(hostGuard(settings.allowedHosts, sites));
// Readers' beacons, the one POST the site takes (app/beacon): page views into the daily counts (app/counts),
// Web Vitals into Prometheus when there is a METRICS_PORT; 404 with ANALYTICS=off.
app.all(
  entry.BEACON_PATH,
  ...(metrics ? [metrics.beacon] : []),
  entry.beaconEndpoint({ counting: settings.analytics, vitals: settings.webVitals }, build.routes, (site, host) => {
    const { counter, catalogue, domainOfHost } = services.of(site);
    const domain = domainOfHost(host);
    return { counter: counter(domain), isArticle: (slug) => catalogue(domain).has(slug) };
  }),
);
// A followable site's WebFinger, NodeInfo, actor, articles and inbox (app/fediverse); FEDIVERSE=on sites only.
app.use(entry.fediverseEndpoint((site) => services.of(site).fediverse));
app.use(readOnlyMethods());
app.use(normalPaths());
app.use(pageAddresses());
if (metrics) app.use(metrics.staticFiles);
app.use(
  build.publicPath,
  expressStaticGzip(path.join(root, build.assetsBuildDirectory), {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    serveStatic: { immutable: true, maxAge: "1y", index: false },
  }),
);
app.get("/favicon.ico", (_req, res) => res.set("Cache-Control", "public, max-age=86400").redirect(301, "/favicon.svg"));
// Files in public/ all have an extension; a page's address is not looked up on disk.
const publicFiles = express.static(path.join(root, "public"), { maxAge: "1h", index: false, redirect: false });
app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
app.use(compression());
if (metrics) app.use(metrics.remixRoute);
const pages = pageCache({ ttlSeconds: settings.pageCacheSeconds, events: metrics?.pageCache });
app.use(pages);
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (_req, res) => ({
      site: res.locals.site,
      services: res.locals.site && services.of(res.locals.site),
    }),
  }),
);
app.use(errorPage(settings.site));

const listening = () => console.log(`Serving on http://${settings.host ?? "localhost"}:${settings.port}`);
const server = settings.host
  ? app.listen(settings.port, settings.host, listening)
  : app.listen(settings.port, listening);
server.once("error", (error: NodeJS.ErrnoException) => {
  console.error(`The site cannot listen on ${settings.host ?? ""}:${settings.port}: ${error.code ?? error.message}`);
  process.exit(1);
});

// On SIGTERM or SIGINT: refuse new connections (a proxy moves on to another origin), answer what is in flight
// with "Connection: close", then exit 0. Connections still open after 10 s are cut; at 15 s it exits 1.
const terminator = createHttpTerminator({ server, gracefulTerminationTimeout: 10_000 });
closeWithGrace({ delay: 15_000, skip: ["SIGHUP"] }, async ({ signal, err }) => {
  if (err) console.error(err);
  else console.log(`${signal}: closing`);
  // http-terminator alone keeps listening while it drains, and resets the connections that arrive meanwhile.
  server.close();
  await terminator.terminate().catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ERR_SERVER_NOT_RUNNING") throw error;
  });
  // The counts not written yet are; the catalogues' syncs stop and give up their leases, so another process takes over at once.
  await services.close();
});

// On SIGHUP: read the sites file again. Requests in flight keep the site they started with; a file with
// problems changes nothing. One line per problem, as at start.
process.on("SIGHUP", () => {
  if (!settings.sitesFile) return console.log("SIGHUP: no SITES_FILE to read; nothing changed");
  const result = sites.reload();
  if (!result.ok)
    return console.error(
      `SIGHUP: the sites file was not applied; the running sites stay as they were:\n${result.problems.map((problem) => `  - ${problem}`).join("\n")}`,
    );
  pages.forgetSites(result.dropped);
  const list = (names: string[]) => names.join(", ") || "none";
  console.log(
    `SIGHUP: ${result.sites} sites; added ${list(result.added)}; changed ${list(result.changed)}; removed ${list(result.removed)}`,
  );
});
