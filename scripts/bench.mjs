// `npm run bench`: how fast the production build serves its pages, beside two baselines.
//
// The site (build/server.js, as in production) reads its blog from the fake backend, with a realistic delay
// per call. Each target gets a warm-up (which also fills the site's caches), then a measured autocannon run,
// one target at a time. The site twice: with its page cache (what readers of popular pages meet), and with
// it off (PAGE_CACHE_SECONDS=0: a full render per request, what a crawler sweeping the long tail meets).
// Baselines: a minimal Remix page served the same way (bench/minimal), and a bare Node server sending the
// article page's bytes. Then 100 simultaneous first requests for an uncached article must cost one backend
// call. Prints the figures and the targets; exits 1 when a target is missed.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { freePort } from "../tests/support/site-process.mjs";
import {
  backend as startBackend,
  benchOptions,
  describeMachine,
  ensureBuild,
  root,
  runBenchmark,
  serverScript,
  site as startSite,
  stopLater,
  warmAndLoad,
} from "./bench-harness.mjs";

const ROUTES = ["/", "/blog", "/blog/backend-article-1"];
const ARTICLE = "/blog/backend-article-1";
/** Not on the home page or page 1 of the blog as details, so nothing before the check has fetched it. */
const FRESH_SLUG = "backend-article-7";
const SIMULTANEOUS_FIRST_REQUESTS = 100;
const MIN_CACHED_TO_MINIMAL = 1.0;
const MIN_RENDER_TO_MINIMAL = 0.5;
const MAX_P99_MS = 50;

const options = benchOptions(
  {
    duration: { default: 10, min: 1 },
    connections: { default: 32, min: 1 },
    warmup: { default: 2, min: 0 },
    "backend-latency": { default: 50, min: 0 },
    // autocannon sends no Accept-Encoding, so by default nothing is compressed; a browser sends
    // "gzip, deflate, br", which makes the servers compress each page (the static copy never does).
    "accept-encoding": { default: undefined },
  },
  'node scripts/bench.mjs [--duration 10] [--connections 32] [--warmup 2] [--backend-latency 50] [--accept-encoding "gzip, deflate, br"]',
);

await runBenchmark(async () => {
  ensureBuild();
  console.log(
    `Benchmark: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s measured per target, ` +
      `backend ${options.backendLatency} ms per call, ` +
      (options.acceptEncoding
        ? `Accept-Encoding: ${options.acceptEncoding}`
        : "no Accept-Encoding (uncompressed responses)"),
  );
  describeMachine();
  await buildMinimalRemixApp();

  const backend = await startBackend({ latencyMs: options.backendLatency });
  const hosted = { BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN };
  const [cached, uncached] = await Promise.all([startSite(hosted), startSite({ ...hosted, PAGE_CACHE_SECONDS: "0" })]);
  const minimal = await serverScript("bench/minimal/server.mjs", await freePort());
  const staticCopy = await serverScript("bench/static-server.mjs", await freePort(), {
    HTML_FILE: await articleSnapshot(cached.url),
  });

  const targets = [
    ...ROUTES.map((route) => ({ name: `site ${route}`, url: cached.url + route, kind: "cached" })),
    ...ROUTES.map((route) => ({
      name: `site ${route}, rendered each time`,
      url: uncached.url + route,
      kind: "rendered",
    })),
    { name: "minimal Remix page", url: `${minimal.url}/`, kind: "minimal" },
    { name: "static article bytes", url: `${staticCopy.url}/`, kind: "static" },
  ];
  const headers = options.acceptEncoding ? { "accept-encoding": options.acceptEncoding } : {};
  const rows = [];
  for (const target of targets) {
    process.stdout.write(`Measuring ${target.name}… `);
    const figures = await warmAndLoad(
      { url: target.url, headers },
      { warmup: options.warmup, duration: options.duration, connections: options.connections },
    );
    console.log(`${Math.round(figures.requestsPerSecond)} req/s`);
    rows.push({ ...target, ...figures });
  }
  const singleFlight = await countBackendCallsForSimultaneousFirstRequests(cached.url, backend);
  return report(rows, singleFlight) ? 0 : 1;
});

async function buildMinimalRemixApp() {
  console.log("Building the minimal Remix app (bench/minimal)…");
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  const child = spawn(process.execPath, [cli, "build", "bench/minimal"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error("building bench/minimal failed");
}

/** The article page exactly as the site sends it, uncompressed, in a file for the static server. */
async function articleSnapshot(siteUrl) {
  const response = await fetch(siteUrl + ARTICLE, { headers: { "Accept-Encoding": "identity" } });
  if (response.status !== 200) throw new Error(`${ARTICLE} answered ${response.status}`);
  const directory = await mkdtemp(path.join(os.tmpdir(), "bench-"));
  stopLater(() => rm(directory, { recursive: true, force: true }));
  const file = path.join(directory, "article.html");
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** Fires the requests at once at an article nobody has asked for yet, and counts get_details calls. */
async function countBackendCallsForSimultaneousFirstRequests(siteUrl, backend) {
  console.log(`\n${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests for /blog/${FRESH_SLUG}…`);
  const detailsCalls = () =>
    backend.calls().filter((call) => call.path === "/get_details" && call.query.slug === FRESH_SLUG).length;
  const before = detailsCalls();
  const statuses = await Promise.all(
    Array.from({ length: SIMULTANEOUS_FIRST_REQUESTS }, async () => {
      const response = await fetch(`${siteUrl}/blog/${FRESH_SLUG}`);
      await response.arrayBuffer();
      return response.status;
    }),
  );
  return { calls: detailsCalls() - before, answeredOk: statuses.filter((status) => status === 200).length };
}

function report(rows, singleFlight) {
  printTable(rows);
  const minimal = rows.find((row) => row.kind === "minimal").requestsPerSecond;
  const ratio = (row) => row.requestsPerSecond / minimal;
  const article = rows.find((row) => row.name === `site ${ARTICLE}`);
  const staticBytes = rows.find((row) => row.kind === "static").requestsPerSecond;
  console.log(`\nEach against the minimal Remix page (${Math.round(minimal)} req/s):`);
  for (const row of rows.filter((row) => row.kind === "cached" || row.kind === "rendered"))
    console.log(`  ${row.name.padEnd(42)} ${ratio(row).toFixed(2)} ×`);
  console.log(`The cached article against static bytes: ${(article.requestsPerSecond / staticBytes).toFixed(2)} ×`);
  console.log(
    `get_details calls for ${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests: ${singleFlight.calls}` +
      `   (${singleFlight.answeredOk} of ${SIMULTANEOUS_FIRST_REQUESTS} answered 200)`,
  );

  const checks = [
    [
      `the cached article ≥ ${MIN_CACHED_TO_MINIMAL} × the minimal Remix page (${ratio(article).toFixed(2)})`,
      ratio(article) >= MIN_CACHED_TO_MINIMAL,
    ],
    ...rows
      .filter((row) => row.kind === "rendered")
      .map((row) => [
        `${row.name} ≥ ${MIN_RENDER_TO_MINIMAL} × the minimal Remix page (${ratio(row).toFixed(2)})`,
        ratio(row) >= MIN_RENDER_TO_MINIMAL,
      ]),
    ...rows
      .filter((row) => row.kind === "cached")
      .map((row) => [
        `${row.name}: p99 ≤ ${MAX_P99_MS} ms at ${options.connections} connections (${row.p99} ms)`,
        row.p99 <= MAX_P99_MS,
      ]),
    [
      `one get_details call for ${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests (${singleFlight.calls})`,
      singleFlight.calls === 1,
    ],
    // Figures from failed responses would mean nothing.
    [
      "every response 2xx, no errors",
      rows.every((row) => row.errors === 0 && row.non2xx === 0) &&
        singleFlight.answeredOk === SIMULTANEOUS_FIRST_REQUESTS,
    ],
  ];
  console.log("\nTargets:");
  for (const [label, met] of checks) console.log(`  ${met ? "met    " : "NOT MET"}  ${label}`);
  return checks.every(([, met]) => met);
}

function printTable(rows) {
  const columns = ["req/s", "p50 ms", "p99 ms", "requests", "errors", "non-2xx"];
  console.log(`\n${options.connections} connections:`);
  const width = Math.max(...rows.map((row) => row.name.length)) + 2;
  console.log("target".padEnd(width) + columns.map((column) => column.padStart(10)).join(""));
  for (const row of rows) {
    const cells = [Math.round(row.requestsPerSecond), row.p50, row.p99, row.requests, row.errors, row.non2xx];
    console.log(row.name.padEnd(width) + cells.map((cell) => String(cell).padStart(10)).join(""));
  }
}
