// `npm run bench`: how fast the production build serves its pages, beside two baselines.
//
// The site (build/server.js, as in production) reads its blog from the fake backend, run in this process with
// a realistic delay per call. Each target gets a warm-up (which also fills the site's cache), then a
// measured autocannon run. autocannon and each server run in processes of their own, so on a 2-core
// machine the load generator and the server under load each have a core; one target at a time.
// Baselines: a minimal Remix page served the same way (bench/minimal), and a bare Node server sending the
// article page's HTML bytes. Then 100 simultaneous first requests for an uncached article must cost one
// backend call. Prints the figures and the targets; exits 1 when a target is missed.
// Options: --duration (measured seconds per target), --connections, --warmup (seconds per target),
// --backend-latency (ms per backend call), --accept-encoding (off by default: see readOptions).
import { fork, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { freePort, startSite } from "../tests/support/site-process.mjs";

const root = path.resolve(import.meta.dirname, "..");
const SITE_ROUTES = ["/", "/blog", "/blog/backend-article-1"];
const ARTICLE_ROUTE = "/blog/backend-article-1";
const UNCACHED_ARTICLE = `site ${ARTICLE_ROUTE}, page cache off`;
/** Not on the home page or page 1 of the blog as details, so nothing before the check has fetched it. */
const FRESH_SLUG = "backend-article-7";
const SIMULTANEOUS_FIRST_REQUESTS = 100;
const MIN_RATIO_TO_MINIMAL = 1.0;
const MAX_P99_MS = 50;
/** Set in the environment of the load generator's process: the run it is to make. */
const LOAD_JOB_VARIABLE = "BENCH_LOAD_JOB";
const USAGE =
  'Usage: node scripts/bench.mjs [--duration 10] [--connections 32] [--warmup 2] [--backend-latency 50] [--accept-encoding "gzip, deflate, br"]';

async function main() {
  let options;
  try {
    options = readOptions();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  process.chdir(root); // startSite runs build/server.js from the working directory
  stopEverythingOnSignal();
  try {
    printSetting(options);
    await buildMinimalRemixApp();
    const { backend, site, uncachedSite, minimal, staticCopy } = await startServers(options);
    await primeSiteCache(site.url);
    await primeSiteCache(uncachedSite.url);

    const rows = [];
    for (const target of loadTargets(site, uncachedSite, minimal, staticCopy)) {
      rows.push(await benchmarkTarget(target, options));
    }
    const singleFlight = await countBackendCallsForSimultaneousFirstRequests(site.url, backend);
    return report(rows, singleFlight, options) ? 0 : 1;
  } catch (error) {
    if (interrupted) return 130; // the failure is the interruption itself, already reported
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.stack : error}`);
    return 1;
  } finally {
    await stopEverything();
  }
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "32" },
      warmup: { type: "string", default: "2" },
      "backend-latency": { type: "string", default: "50" },
      // autocannon sends no Accept-Encoding, so by default nothing is compressed; a browser sends
      // "gzip, deflate, br", which makes the servers compress each page (the static copy never does).
      "accept-encoding": { type: "string" },
    },
  });
  const number = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return value;
  };
  return {
    durationSeconds: number("duration", 1),
    connections: number("connections", 1),
    warmupSeconds: number("warmup", 0),
    backendLatencyMs: number("backend-latency", 0),
    acceptEncoding: values["accept-encoding"],
  };
}

function printSetting({ durationSeconds, connections, warmupSeconds, backendLatencyMs, acceptEncoding }) {
  const load = os.loadavg().map((value) => value.toFixed(2)).join(" ");
  const busy = os.loadavg()[0] >= os.availableParallelism();
  console.log(
    `Benchmark: ${connections} connections, ${warmupSeconds} s warm-up + ${durationSeconds} s measured per target, ` +
      `backend ${backendLatencyMs} ms per call, ` +
      (acceptEncoding ? `Accept-Encoding: ${acceptEncoding}` : "no Accept-Encoding (uncompressed responses)"),
  );
  console.log(`Node ${process.version}, ${os.availableParallelism()} cores, load average before the run: ${load}`);
  // The targets are measured one after another, so work that comes and goes skews the ratios.
  if (busy) console.log("Warning: other work is keeping the cores busy; expect noisy figures.");
  console.log("");
}

// --- Starting and stopping ------------------------------------------------------------------------

/** What to stop at the end, on error and on Ctrl-C; newest first. */
const stoppers = new Set();
/** Every child process, so none outlives this one even when it exits abruptly. */
const children = new Set();
let interrupted = false;

function whenStopping(stop) {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

async function stopEverything() {
  for (const stop of [...stoppers].reverse()) {
    stoppers.delete(stop);
    try {
      await stop();
    } catch (error) {
      console.error(`While stopping: ${error instanceof Error ? error.message : error}`);
    }
  }
}

function stopEverythingOnSignal() {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, async () => {
      interrupted = true;
      console.error(`\n${signal}: stopping the servers`);
      await stopEverything();
      process.exit(130);
    });
  }
  process.once("exit", () => {
    for (const child of children) if (isRunning(child)) child.kill("SIGKILL");
  });
}

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM lets the servers close their sockets; one that hangs is killed after a few seconds. */
async function stopProcess(child) {
  if (!isRunning(child)) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timeout = sleep(5_000).then(() => "timeout");
  if ((await Promise.race([exited, timeout])) === "timeout") {
    child.kill("SIGKILL");
    await exited;
  }
}

function lastLines(text, count = 20) {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

/** Keeps the last part of a child's output for error messages, and keeps its pipes drained. */
function collectOutput(child) {
  let output = "";
  const append = (chunk) => {
    output = (output + chunk).slice(-8_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return () => output;
}

async function buildMinimalRemixApp() {
  console.log("Building the minimal Remix app (bench/minimal)…");
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  const child = track(spawn(process.execPath, [cli, "build", "bench/minimal"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] }));
  const output = collectOutput(child);
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`building bench/minimal failed:\n${lastLines(output())}`);
}

async function startServers({ backendLatencyMs }) {
  const backend = await startFakeBackend({ latencyMs: backendLatencyMs });
  whenStopping(() => backend.close());

  const site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN });
  track(site.child);
  whenStopping(() => stopProcess(site.child));

  // The same site with its page cache off (docs/decisions/014), to show what a full render per request costs.
  const uncachedSite = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "0" });
  track(uncachedSite.child);
  whenStopping(() => stopProcess(uncachedSite.child));

  const minimal = await startServerProcess("bench/minimal/server.mjs");

  const snapshotDirectory = await mkdtemp(path.join(os.tmpdir(), "bench-"));
  whenStopping(() => rm(snapshotDirectory, { recursive: true, force: true }));
  const htmlFile = path.join(snapshotDirectory, "article.html");
  await writeFile(htmlFile, await fetchArticleBytes(site.url));
  const staticCopy = await startServerProcess("bench/static-server.mjs", { HTML_FILE: htmlFile });

  return { backend, site, uncachedSite, minimal, staticCopy };
}

/** Starts a server script on a free loopback port, in the same environment startSite gives the site. */
async function startServerProcess(script, env = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = track(
    spawn(process.execPath, [script], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const output = collectOutput(child);
  whenStopping(() => stopProcess(child));
  for (let attempt = 0; ; attempt += 1) {
    if (!isRunning(child)) throw new Error(`${script} exited:\n${lastLines(output())}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return { url, child, output };
    } catch {
      if (attempt > 100) throw new Error(`${script} did not start:\n${lastLines(output())}`);
    }
    await sleep(100);
  }
}

/** The article page exactly as the site sends it, uncompressed. */
async function fetchArticleBytes(siteUrl) {
  const response = await fetch(siteUrl + ARTICLE_ROUTE, { headers: { "Accept-Encoding": "identity" } });
  if (response.status !== 200) throw new Error(`${ARTICLE_ROUTE} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

async function primeSiteCache(siteUrl) {
  for (const route of SITE_ROUTES) {
    const response = await fetch(siteUrl + route);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${route} answered ${response.status} before the load`);
  }
}

function loadTargets(site, uncachedSite, minimal, staticCopy) {
  return [
    ...SITE_ROUTES.map((route) => ({ name: `site ${route}`, url: site.url + route, child: site.child, output: site.output, isSiteRoute: true })),
    { name: UNCACHED_ARTICLE, url: uncachedSite.url + ARTICLE_ROUTE, child: uncachedSite.child, output: uncachedSite.output, isSiteRoute: false },
    { name: "minimal Remix page", url: `${minimal.url}/`, child: minimal.child, output: minimal.output, isSiteRoute: false },
    { name: "static article bytes", url: `${staticCopy.url}/`, child: staticCopy.child, output: staticCopy.output, isSiteRoute: false },
  ];
}

// --- Measuring --------------------------------------------------------------------------------------

async function benchmarkTarget(target, { durationSeconds, connections, warmupSeconds, acceptEncoding }) {
  process.stdout.write(`Measuring ${target.name}… `);
  const headers = acceptEncoding ? { "accept-encoding": acceptEncoding } : {};
  if (warmupSeconds > 0) await runLoad({ url: target.url, connections, headers, durationSeconds: warmupSeconds });
  const figures = await runLoad({ url: target.url, connections, headers, durationSeconds });
  if (!isRunning(target.child)) throw new Error(`the server for ${target.name} died; its last output:\n${lastLines(target.output())}`);
  console.log(`${Math.round(figures.requestsPerSecond)} req/s`);
  return { ...target, ...figures };
}

/**
 * One autocannon run in a child process of its own, so the load generator and the server under load
 * each have a core. (Not a worker thread: autocannon takes any worker thread for one of its own and
 * skips the summary there.)
 */
async function runLoad({ url, connections, headers, durationSeconds }) {
  const job = { url, connections, headers, duration: durationSeconds };
  const child = track(fork(import.meta.filename, [], { env: { ...process.env, [LOAD_JOB_VARIABLE]: JSON.stringify(job) }, stdio: "inherit" }));
  const forget = whenStopping(() => stopProcess(child));
  try {
    const figures = await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the load generator exited (${code}) without figures`)));
    });
    await new Promise((resolve) => (isRunning(child) ? child.once("exit", resolve) : resolve()));
    return figures;
  } finally {
    forget();
  }
}

async function measureLoadInChild({ url, connections, headers, duration }) {
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({ url, connections, headers, duration });
  const figures = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    // autocannon counts timeouts among the errors as well
    errors: result.errors,
    non2xx: result.non2xx,
  };
  await new Promise((resolve) => process.send?.(figures, resolve));
  process.disconnect?.();
}

/** Fires the requests at once at an article nobody has asked for yet, and counts get_details calls. */
async function countBackendCallsForSimultaneousFirstRequests(siteUrl, backend) {
  console.log(`\n${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests for /blog/${FRESH_SLUG}…`);
  const detailsCalls = () => backend.calls().filter((call) => call.path === "/get_details" && call.query.slug === FRESH_SLUG).length;
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

// --- Reporting --------------------------------------------------------------------------------------

function report(rows, singleFlight, { connections }) {
  printTable(rows, connections);
  const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
  const article = byName[`site ${ARTICLE_ROUTE}`];
  const toMinimal = article.requestsPerSecond / byName["minimal Remix page"].requestsPerSecond;
  const toStatic = article.requestsPerSecond / byName["static article bytes"].requestsPerSecond;
  console.log(`\narticle req/s ÷ minimal Remix req/s: ${toMinimal.toFixed(2)}   (target ≥ ${MIN_RATIO_TO_MINIMAL})`);
  console.log(`article req/s ÷ static bytes req/s:  ${toStatic.toFixed(2)}`);
  const uncached = byName[UNCACHED_ARTICLE].requestsPerSecond / byName["minimal Remix page"].requestsPerSecond;
  console.log(`article with the page cache off ÷ minimal Remix: ${uncached.toFixed(2)}   (for comparison)`);
  console.log(
    `get_details calls for ${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests: ${singleFlight.calls}` +
      `   (${singleFlight.answeredOk} of ${SIMULTANEOUS_FIRST_REQUESTS} answered 200)`,
  );

  const checks = [
    [`article throughput ≥ ${MIN_RATIO_TO_MINIMAL} × minimal Remix (${toMinimal.toFixed(2)})`, toMinimal >= MIN_RATIO_TO_MINIMAL],
    ...rows
      .filter((row) => row.isSiteRoute)
      .map((row) => [`${row.name}: p99 ≤ ${MAX_P99_MS} ms at ${connections} connections (${row.p99} ms)`, row.p99 <= MAX_P99_MS]),
    [`one get_details call for ${SIMULTANEOUS_FIRST_REQUESTS} simultaneous first requests (${singleFlight.calls})`, singleFlight.calls === 1],
    // Figures from failed responses would mean nothing.
    ["every response 2xx, no errors", rows.every((row) => row.errors === 0 && row.non2xx === 0) && singleFlight.answeredOk === SIMULTANEOUS_FIRST_REQUESTS],
  ];
  console.log("\nTargets:");
  for (const [label, met] of checks) console.log(`  ${met ? "met    " : "NOT MET"}  ${label}`);
  return checks.every(([, met]) => met);
}

function printTable(rows, connections) {
  const columns = ["req/s", "p50 ms", "p99 ms", "requests", "errors", "non-2xx"];
  console.log(`\nWarm cache, ${connections} connections:`);
  const width = Math.max(...rows.map((row) => row.name.length)) + 2;
  console.log("target".padEnd(width) + columns.map((column) => column.padStart(10)).join(""));
  for (const row of rows) {
    const cells = [Math.round(row.requestsPerSecond), row.p50, row.p99, row.requests, row.errors, row.non2xx];
    console.log(row.name.padEnd(width) + cells.map((cell) => String(cell).padStart(10)).join(""));
  }
}

// Last, so every module-level constant above is initialised before it runs.
if (process.env[LOAD_JOB_VARIABLE]) {
  await measureLoadInChild(JSON.parse(process.env[LOAD_JOB_VARIABLE]));
} else {
  process.exitCode = await main();
}
