// `npm run bench:metrics`: what the Prometheus metrics cost a cached page (docs/decisions/021).
//
// Two production servers read the same fake backend (50 ms a call): one without METRICS_PORT, one with
// it, scraped every 5 s during its runs (three times as often as Prometheus's default). For each of
// `/`, `/blog` and an article, autocannon (a process of its own, 32 connections) measures one server
// then the other, the order swapped every round, so that other work on a busy machine weighs on both
// alike. Prints the load average before and after, each run, and per page the mean req/s with metrics
// against without, and the server's CPU time per request (from /proc, Linux), which other work on the
// machine disturbs less than req/s; exits 1 when a page with metrics serves fewer than 95 % of the
// requests without. With --rate N, autocannon sends N requests a second, below what the servers can
// take: then req/s says nothing, and the CPU time per request is the figure to compare. First, in this
// process, what prom-client takes for the work each request adds (a histogram observation with the
// request labels, a counter increment), which no load on the machine blurs as much.
// Options: --duration (seconds per run), --rounds, --connections, --rate.
import { readFileSync } from "node:fs";
import os from "node:os";
import client from "prom-client";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { freePort } from "../tests/support/site-process.mjs";
import {
  backend as startBackend,
  benchOptions,
  ensureBuild,
  load,
  runBenchmark,
  site as startSite,
} from "./bench-harness.mjs";

const PAGES = ["/", "/blog", "/blog/backend-article-1"];
const MIN_RATIO = 0.95;
const SCRAPE_EVERY_MS = 5_000;

const { duration, rounds, connections, rate } = benchOptions(
  {
    duration: { default: 8, min: 1 },
    rounds: { default: 4, min: 1 },
    connections: { default: 32, min: 1 },
    rate: { default: 0, min: 0 },
  },
  "node scripts/bench-metrics.mjs [--duration 8] [--rounds 4] [--connections 32] [--rate N]",
);

const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** CPU seconds a process has used (user + system), from /proc/PID/stat, at 100 ticks a second. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** One autocannon run against `url`, in a process of its own; its mean req/s, p99 and requests. */
async function measure(url) {
  const { requestsPerSecond, p99, requests, non2xx, errors } = await load({ url, connections, duration, rate });
  if (non2xx + errors > 0) throw new Error(`${url}: ${non2xx} non-2xx answers, ${errors} errors`);
  return { rps: requestsPerSecond, p99, requests };
}

/** Microseconds per call of `call`, over a million calls. */
function microseconds(call) {
  const start = performance.now();
  for (let i = 0; i < 1_000_000; i += 1) call();
  return ((performance.now() - start) / 1_000_000) * 1000;
}
const registry = new client.Registry();
const histogram = new client.Histogram({
  name: "h_seconds",
  help: "h",
  labelNames: ["site", "route", "status_class"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const counter = new client.Counter({ name: "c_total", help: "c", labelNames: ["site"], registers: [registry] });
const labels = { site: "default", route: "routes/blog.$slug", status_class: "2xx" };
console.log(
  `prom-client in this process: a histogram observation ${microseconds(() => histogram.observe(labels, 0.003)).toFixed(2)} µs, ` +
    `a counter increment ${microseconds(() => counter.inc({ site: "default" })).toFixed(2)} µs`,
);

await runBenchmark(async () => {
  ensureBuild();
  const backend = await startBackend({ latencyMs: 50 });
  const metricsPort = await freePort();
  const env = { BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN };
  const servers = { off: await startSite(env), on: await startSite({ ...env, METRICS_PORT: String(metricsPort) }) };
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  for (const server of Object.values(servers))
    for (const page of PAGES) await (await fetch(server.url + page)).arrayBuffer();
  console.log(`Node ${process.version}, ${os.availableParallelism()} cores, load average before: ${loadAverage()}`);
  console.log(
    `${connections} connections${rate ? ` at ${rate} requests a second` : ""}, ${duration} s per run, ${rounds} rounds, metrics on and off alternating\n`,
  );
  const runs = Object.fromEntries(PAGES.map((page) => [page, { off: [], on: [] }]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
    for (const page of PAGES) {
      for (const mode of order) {
        const scraper = mode === "on" ? setInterval(() => void scrape(), SCRAPE_EVERY_MS) : undefined;
        const cpuBefore = cpuSeconds(servers[mode].child.pid);
        const run = await measure(servers[mode].url + page).finally(() => clearInterval(scraper));
        run.cpuUs = ((cpuSeconds(servers[mode].child.pid) - cpuBefore) / run.requests) * 1e6;
        runs[page][mode].push(run);
        console.log(
          `round ${round + 1} ${page.padEnd(24)} metrics ${mode.padEnd(3)} ${Math.round(run.rps)} req/s, p99 ${run.p99} ms, ${Math.round(run.cpuUs)} µs CPU a request`,
        );
      }
    }
  }
  const exposition = await scrape();
  if (!exposition.includes('route="routes/blog.$slug"'))
    throw new Error("the server with metrics did not count the article's requests");

  const mean = (list, field) => list.reduce((sum, run) => sum + run[field], 0) / list.length;
  console.log(`\nload average after: ${loadAverage()}\n`);
  console.log(
    "| page | metrics off req/s (p99 ms) | metrics on req/s (p99 ms) | on ÷ off | server CPU a request, off / on |\n|---|---|---|---|---|",
  );
  let met = true;
  for (const page of PAGES) {
    const { off, on } = runs[page];
    const ratio = mean(on, "rps") / mean(off, "rps");
    met &&= ratio >= MIN_RATIO;
    const cell = (list) => `${Math.round(mean(list, "rps"))} (${Math.round(mean(list, "p99"))})`;
    console.log(
      `| ${page} | ${cell(off)} | ${cell(on)} | ${(ratio * 100).toFixed(1)} % | ${Math.round(mean(off, "cpuUs"))} / ${Math.round(mean(on, "cpuUs"))} µs |`,
    );
  }
  console.log(
    `\nWith metrics, every page at ≥ ${MIN_RATIO * 100} % of the requests per second without: ${met ? "met" : "MISSED"}`,
  );
  // At a set rate both serve what they are sent: only the CPU time per request tells them apart.
  return met || rate ? 0 : 1;
});
