// Serves the minimal Remix app (bench/minimal) as remix-serve does: compression, immutable build assets,
// morgan's "tiny" request log and Remix's request handler. Started by scripts/bench.mjs.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import morgan from "morgan";

const build = await import(path.resolve(import.meta.dirname, "build/server/index.js"));
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(morgan("tiny"));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const server = app.listen(port, host, () => console.log(`Minimal Remix page on http://${host}:${port}`));

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
