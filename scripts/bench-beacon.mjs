// `npm run bench:beacon`: what readers' beacons cost one origin (app/vitals, app/counts; docs/decisions/047
// and 050).
//
// One production server of the embedded articles (ANALYTICS on, METRICS_PORT set, its page cache on) and
// autocannon in processes of their own. Runs, each --duration seconds:
//   1. a cached article alone, at full speed: req/s, and the server's CPU time per request (from /proc);
//   2. beacons alone at --rate a second (below the process's bound of 200 counted a second), each from
//      another reader (X-Forwarded-For from loopback): counted per second, CPU time per beacon (less what
//      the server spends idle, measured first);
//   3. a flood of beacons at full speed: what the endpoint answers per second, how many it counts (at most
//      200 a second, by design) and what the rest cost;
//   4. the article at full speed while the flood goes on: req/s against run 1.
// The cost per cached page view is run 1's CPU time per page plus run 2's per beacon. Prints the load
// average before and after, each run, and a table for docs/performance.md.
// Options: --duration (seconds per run), --connections, --rate (beacons a second in run 2).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { freePort } from "../tests/support/site-process.mjs";
import { benchOptions, ensureBuild, load, runBenchmark, site as startSite, stopLater } from "./bench-harness.mjs";

const ARTICLE = "/blog/zazen-posture-for-beginners";
const { duration, connections, rate } = benchOptions(
  { duration: { default: 10, min: 1 }, connections: { default: 32, min: 1 }, rate: { default: 150, min: 1 } },
  "node scripts/bench-beacon.mjs [--duration 10] [--connections 32] [--rate 150]",
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

/** A reader's report of the article, as the measuring script sends it when the page is hidden. */
const BODY = JSON.stringify({
  v: 1,
  kind: "vitals",
  path: ARTICLE,
  metrics: { LCP: [1240, "main>img"], CLS: [0.02, ""], FCP: [610, ""], TTFB: [120, ""] },
  q: "?utm_source=newsletter",
  r: "https://news.example.net/",
});
const HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  "sec-fetch-site": "same-origin",
  "content-type": "text/plain;charset=UTF-8",
};

/** Beacons from scripts/bench-beacon-load.mjs, each from another reader; its figures. */
function beacons({ url, connections, duration, rate = 0 }) {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ url, body: BODY, headers: HEADERS, connections, duration, rate });
    const child = spawn(process.execPath, ["scripts/bench-beacon-load.mjs", options], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    stopLater(() => child.kill("SIGKILL"));
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the beacons' load exited with ${code}`)),
    );
  });
}

await runBenchmark(async () => {
  ensureBuild();
  const metricsPort = await freePort();
  const server = await startSite({ METRICS_PORT: String(metricsPort) });
  const pid = server.child.pid;
  /** The beacons the endpoint has had so far, by outcome. */
  const outcomes = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const found = {};
    for (const line of text.split("\n")) {
      const match = /^content_site_beacons_total\{.*outcome="([a-z_]+)".*\} (\d+)/.exec(line);
      if (match) found[match[1]] = (found[match[1]] ?? 0) + Number(match[2]);
    }
    return found;
  };
  const run = async (name, target, extra = {}) => {
    const [cpuBefore, before] = [cpuSeconds(pid), await outcomes()];
    const options = { url: server.url + target, connections, duration, ...extra };
    const result = await (target === "/__beacon" ? beacons(options) : load(options));
    const [cpu, after] = [cpuSeconds(pid) - cpuBefore, await outcomes()];
    const delta = Object.fromEntries(
      Object.keys(after)
        .map((key) => [key, after[key] - (before[key] ?? 0)])
        .filter(([, n]) => n > 0),
    );
    const line = {
      name,
      rps: result.requestsPerSecond,
      p99: result.p99,
      requests: result.requests,
      cpuUs: (cpu / Math.max(1, result.requests)) * 1e6,
      outcomes: delta,
    };
    console.log(
      `${name.padEnd(34)} ${Math.round(line.rps)} req/s, p99 ${line.p99} ms, ${Math.round(line.cpuUs)} µs CPU a request, beacons: ${JSON.stringify(delta)}`,
    );
    return line;
  };

  for (let i = 0; i < 50; i += 1) await (await fetch(server.url + ARTICLE)).arrayBuffer();
  console.log(`Node ${process.version}, ${os.availableParallelism()} cores, load average before: ${loadAverage()}`);
  console.log(`${connections} connections, ${duration} s per run\n`);

  // What the server spends with nothing to answer (timers, the counts' flush, metrics): taken off the paced
  // run's figure, whose few requests a second would carry it.
  const idleBefore = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, duration * 1000));
  const idlePerSecond = (cpuSeconds(pid) - idleBefore) / duration;
  console.log(`0. idle                             ${Math.round(idlePerSecond * 1e6)} µs CPU a second`);
  const pagesAlone = await run("1. the cached article alone", ARTICLE);
  const paced = await run(`2. beacons at ${rate} a second`, "/__beacon", {
    rate,
    connections: Math.min(connections, 8),
  });
  paced.cpuUs -= (idlePerSecond * duration * 1e6) / Math.max(1, paced.requests);
  const flood = await run("3. a flood of beacons", "/__beacon");
  const [pagesInFlood] = await Promise.all([
    run("4. the article during a flood", ARTICLE),
    beacons({ url: `${server.url}/__beacon`, connections, duration }),
  ]);

  const counted = (line) => (line.outcomes.counted ?? 0) / duration;
  console.log(`\nload average after: ${loadAverage()}\n`);
  console.log("| figure | value |\n|---|---|");
  console.log(
    `| a cached article, alone | ${Math.round(pagesAlone.rps)} req/s, ${Math.round(pagesAlone.cpuUs)} µs CPU each |`,
  );
  console.log(
    `| beacons at ${rate} a second | ${Math.round(counted(paced))} counted a second, ${Math.round(paced.cpuUs)} µs CPU each |`,
  );
  console.log(
    `| a flood of beacons | ${Math.round(flood.rps)} answered a second, ${Math.round(counted(flood))} counted (bound: 200 a second after a burst of 400), ${Math.round(flood.cpuUs)} µs CPU each |`,
  );
  console.log(
    `| the article during the flood | ${Math.round(pagesInFlood.rps)} req/s (${((pagesInFlood.rps / pagesAlone.rps) * 100).toFixed(0)} % of alone) |`,
  );
  console.log(
    `| a cached page view with its beacon | ${Math.round(pagesAlone.cpuUs + paced.cpuUs)} µs CPU (the page ${Math.round(pagesAlone.cpuUs)}, its beacon ${Math.round(paced.cpuUs)}) |`,
  );
  // Run 2 stays below the bound: every beacon of it must be counted, or the endpoint drops readers.
  const missed = (paced.outcomes.counted ?? 0) < paced.requests * 0.99;
  if (missed)
    console.log(`\nOnly ${paced.outcomes.counted ?? 0} of ${paced.requests} paced beacons were counted: MISSED`);
  return missed ? 1 : 0;
});
