// The production HTTP server: remix-serve's behaviour (compression, immutable /build assets, request
// log, PORT and HOST) plus what remix-serve cannot do: security headers and a CSP nonce per response,
// a Host check before anything else runs, precompressed assets, a short-lived page cache, a plain page
// for requests that fail before the app (an undecodable address), graceful shutdown. See
// docs/decisions/005 and 008.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { flushEventStreamsOnly } from "./server/flush-event-streams-only.mjs";
import onHeaders from "on-headers";
import { errorPage } from "./server/error-page.mjs";
import { pageCache } from "./server/page-cache.mjs";
import { requestLog } from "./server/request-log.mjs";
import { knownFiles, precompressed } from "./server/static-files.mjs";
import { collapseLeadingSlashes } from "./server/leading-slashes.mjs";
import { cspNonce, hostGuard, securityHeaders } from "./server/security.mjs";

const build = await import(path.resolve("build/index.js"));
installGlobals({ nativeFetch: build.future.v3_singleFetch });
// The app's own settings check: a wrong setting stops the server here with a readable list.
const settings = build.entry.module.getSettings();

const app = express();
app.disable("x-powered-by");
// Once the server is shutting down (see the end of this file), every response, in flight or new,
// tells the client to close the connection.
let closing = false;
app.use((_req, res, next) => {
  onHeaders(res, () => closing && res.setHeader("Connection", "close"));
  next();
});
app.use(securityHeaders(settings));
app.use(hostGuard(settings.allowedHosts));
app.use(collapseLeadingSlashes());
app.use(build.publicPath, precompressed(build.assetsBuildDirectory, { maxAge: "1y" }));
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(knownFiles("public", express.static("public", { maxAge: "1h" }), (folder) => folder === "build"));
app.use(requestLog());
app.use(cspNonce());
app.use(pageCache({ ttlSeconds: settings.pageCacheSeconds }));
app.use(flushEventStreamsOnly());
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce }),
  }),
);
app.use(errorPage(settings));

const server = app.listen(settings.port, settings.host, () => {
  console.log(`Serving on http://${settings.host ?? "localhost"}:${settings.port}`);
});

// On SIGTERM: stop accepting connections, answer what is in flight with "Connection: close" so that
// keep-alive clients (proxies, load balancers) let go, then exit. A stuck connection does not hold the
// process for ever: after 10 s it exits anyway, with an error status, so the cut is not mistaken for a
// clean stop.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    console.log(`${signal}: closing`);
    closing = true;
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => {
      console.error("Connections still open after 10 s: exiting anyway");
      process.exit(1);
    }, 10_000).unref();
  });
}
