// The production HTTP server: remix-serve's behaviour (compression, immutable /build assets, request
// log, PORT and HOST) plus what remix-serve cannot do: answer a malformed Host header with 400 before
// the Remix adapter turns it into a 500, and shut down gracefully. See docs/decisions/005.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";
import { parseHostHeader } from "./app/lib/host.mjs";
import { precompressed } from "./server/precompressed.mjs";

const buildPath = path.resolve("build/index.js");
const build = await import(buildPath);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || undefined;

const app = express();
app.disable("x-powered-by");
app.use((req, res, next) => {
  if (parseHostHeader(req.headers.host)) return next();
  res.status(400).type("text/plain").set("Cache-Control", "no-store").send("Bad Request: invalid Host header\n");
});
app.use(build.publicPath, precompressed(build.assetsBuildDirectory, { maxAge: "1y" }));
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const server = app.listen(port, host, () => {
  console.log(`Serving on http://${host ?? "localhost"}:${port}`);
});

// Finish the requests in flight, then exit; a stuck connection does not hold the process for ever.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    console.log(`${signal}: closing`);
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
