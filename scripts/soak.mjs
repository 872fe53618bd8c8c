// `npm run soak`: the production server under steady load over a mix of pages while the blog backend
// flaps (healthy, 500 for everything, slow, hanging, down), then a SIGTERM with requests in flight.
// Every page in the mix is seen once first, so an outage must be covered by the stale cache: any 5xx is
// a failure. Prints the figures and one PASS/FAIL line per check; exits non-zero when a check fails.
// Loopback only, bounded in time. Flags: --seconds 300 --connections 64 --flap-seconds 3
// --heap-mb 192 (0: Node's default heap) --max-rss-growth-mb 200 --max-last-minute-growth-mb 10. Needs a build (npm run build).
import { once } from "node:events";
import http from "node:http";
import autocannon from "autocannon";
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { rssKb, startSite } from "../tests/support/site-process.mjs";

const options = {
  seconds: numberFlag("seconds", 300),
  connections: numberFlag("connections", 64),
  flapSeconds: numberFlag("flap-seconds", 3),
  heapMb: numberFlag("heap-mb", 192, 0),
  maxRssGrowthMb: numberFlag("max-rss-growth-mb", 200),
  // Memory must level off: what the last minute of load adds to RSS.
  maxLastMinuteGrowthMb: numberFlag("max-last-minute-growth-mb", 10),
};

const TIMEOUT_MS = 2000;
/** Slow but within the site's backend timeout: pages must still come back. */
const SLOW_MS = 700;
/** Longer than the timeout: every backend call is cut off by the site. */
const HANG_MS = 8000;

/** The load mix: pages a visitor or crawler asks for, with the status each must keep answering. */
const mix = [
  { path: "/", status: 200 },
  { path: "/blog", status: 200 },
  { path: "/blog?page=2", status: 200 },
  { path: "/blog/backend-article-1", status: 200 },
  { path: "/blog/backend-article-4", status: 200 },
  { path: "/blog/backend-article-11", status: 200 },
  { path: "/blog/backend-article-23", status: 200 },
  { path: "/sitemap.xml", status: 200 },
  { path: "/blog/rss.xml", status: 200 },
  { path: "/blog/no-such-article", status: 404 },
  { path: "/no-such-page", status: 404 },
];

/** Keep-alive clients that ask for cached pages only, through the SIGTERM. */
const SHUTDOWN_CLIENTS = 8;
/** Articles outside the mix (and outside the RSS feed's ten newest), for the shutdown check. */
const unseenSlugs = Array.from({ length: 6 }, (_, index) => `backend-article-${14 + index}`);

/** What the backend does in each phase; "down" closes it, so calls are refused. */
const phases = {
  healthy: { listStatus: 200, detailsStatus: 200, latencyMs: 0 },
  "500s": { listStatus: 500, detailsStatus: 500, latencyMs: 0 },
  slow: { listStatus: 200, detailsStatus: 200, latencyMs: SLOW_MS },
  hanging: { listStatus: 200, detailsStatus: 200, latencyMs: HANG_MS },
  down: undefined,
};
const phaseOrder = /** @type {(keyof typeof phases)[]} */ (Object.keys(phases));

const checks = [];
const check = (ok, label) => checks.push({ ok: Boolean(ok), label });

function numberFlag(name, fallback, min = 1) {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value < min) {
    console.error(`--${name} needs a number of at least ${min}`);
    process.exit(2);
  }
  return value;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The promise's value, or `fallback` after `ms`; the timer never outlives the answer. */
async function within(promise, ms, fallback) {
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

/**
 * One GET; resolves with the status, body and timing, or with the network error. `agent: false` opens
 * a connection of its own; a keep-alive agent reuses them, as browsers and proxies do. `unanswered`
 * marks a connection reset before any byte of an answer (an idle keep-alive connection closed, or a
 * connection still queued when the listener closed): a client may retry a GET then (RFC 9110 9.2.2).
 */
function get(url, agent = false) {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let answered = false;
    const request = http.get(url, { agent }, (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => settle({ status: response.statusCode ?? 0, body }));
      response.on("error", (error) => settle({ status: 0, body: "", error }));
    });
    request.on("error", (error) => settle({ status: 0, body: "", error }));
    function settle(reply) {
      const unanswered = Boolean(reply.error) && !answered && reply.error.code === "ECONNRESET";
      resolve({ ...reply, unanswered, startedAt, endedAt: performance.now() });
    }
  });
}

/**
 * The fake backend on a fixed port, so it can go down and come back where the site expects it.
 * `backend()` is the running instance, or undefined while it is down.
 */
async function createFlappingBackend() {
  let current = await startFakeBackend({ articles: 23 });
  const { port, url } = current;
  let phase = "healthy";

  async function restart() {
    // The port was ours a moment ago; retry briefly in case the kernel has not let go of it yet.
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await startFakeBackend({ articles: 23, port });
      } catch (error) {
        if (attempt >= 20) throw error;
        await sleep(100);
      }
    }
  }

  return {
    url,
    backend: () => current,
    phase: () => phase,
    async enter(next) {
      if (next === "down") {
        await current?.close();
        current = undefined;
      } else {
        current ??= await restart();
        Object.assign(current.state, phases[next]);
      }
      phase = next;
    },
    close: () => current?.close(),
  };
}

/** Cycles the backend through the phases until stopped; returns when the last switch is done. */
function flap(flapping, flapSeconds, timeline) {
  let stopped = false;
  let wake = () => {};
  const done = (async () => {
    for (let step = 1; !stopped; step += 1) {
      await within(new Promise((resolve) => (wake = resolve)), flapSeconds * 1000);
      if (stopped) break;
      const next = phaseOrder[step % phaseOrder.length];
      await flapping.enter(next);
      timeline.push(next);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake();
      await done;
    },
  };
}

async function warmUp(site) {
  for (const { path, status } of mix) {
    const reply = await get(`${site.url}${path}`);
    if (reply.status !== status) throw new Error(`warm-up: ${path} answered ${reply.status}, expected ${status}`);
  }
}

/** The load itself, with each response counted by route and by the backend's phase at the time. */
async function runLoad(site, flapping) {
  const byStatus = new Map();
  const byPhase = new Map();
  const unexpected = new Map();
  const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

  const requests = mix.map((route) => ({
    method: "GET",
    path: route.path,
    onResponse: (code) => {
      const status = code ?? "no answer";
      count(byStatus, status);
      const phaseCounts = byPhase.get(flapping.phase()) ?? { responses: 0, fiveHundreds: 0 };
      phaseCounts.responses += 1;
      if (code >= 500) phaseCounts.fiveHundreds += 1;
      byPhase.set(flapping.phase(), phaseCounts);
      if (status !== route.status) count(unexpected, `${route.path} → ${status}`);
    },
  }));

  const result = await autocannon({
    url: site.url,
    connections: options.connections,
    duration: options.seconds,
    // Generous: the machine may be shared; a visitor-facing stall of this length is still a failure.
    timeout: 20,
    requests,
  });
  return { result, byStatus, byPhase, unexpected };
}

/** Samples the server's RSS once a second while the load runs. */
function sampleMemory(pid) {
  const samples = [rssKb(pid)];
  const timer = setInterval(() => samples.push(rssKb(pid)), 1000);
  return {
    stop() {
      clearInterval(timer);
      samples.push(rssKb(pid));
      const minuteAgo = samples[Math.max(0, samples.length - 61)];
      return {
        start: samples[0],
        peak: Math.max(...samples),
        end: samples.at(-1),
        lastMinute: samples.at(-1) - minuteAgo,
      };
    },
  };
}

/**
 * SIGTERM in the middle of traffic over keep-alive connections, as a reverse proxy sends it. Some
 * clients first ask for an article never seen while the backend is slow, so their request is certainly
 * in flight at the signal; every client then keeps asking for cached pages, reusing its connection,
 * until the server refuses or drops it. A server that drains closes each connection after its answer.
 */
async function shutDownUnderLoad(site, flapping) {
  await flapping.enter("slow");
  const backend = flapping.backend();
  const agent = new http.Agent({ keepAlive: true, maxSockets: SHUTDOWN_CLIENTS + unseenSlugs.length });
  const exited = once(site.child, "exit");
  let signalledAt = Infinity;
  let exitedAt = Infinity;
  exited.then(() => (exitedAt = performance.now()));

  const slowReplies = [];
  const loopReplies = [];
  async function client(index, slug) {
    if (slug) slowReplies.push({ ...(await get(`${site.url}/blog/${slug}`, agent)), slug });
    const { path, status } = mix[index % mix.length];
    // Until the server refuses or drops us, or 15 s after the signal at the latest.
    for (;;) {
      let reply = await get(`${site.url}${path}`, agent);
      if (reply.unanswered) {
        // As a browser or proxy would: once more, on a new connection.
        reply = { ...(await get(`${site.url}${path}`)), retried: true, startedAt: reply.startedAt };
      }
      loopReplies.push({ ...reply, expected: status });
      if (reply.error || performance.now() - signalledAt > 15_000) break;
    }
  }
  const clients = [
    ...unseenSlugs.map((slug, index) => client(index, slug)),
    ...Array.from({ length: SHUTDOWN_CLIENTS }, (_, index) => client(index)),
  ];

  const asked = () =>
    unseenSlugs.every((slug) =>
      backend.calls().some((call) => call.path === "/get_details" && call.query.slug === slug),
    );
  for (let waited = 0; !asked() && waited < 10_000; waited += 20) await sleep(20);
  const slowInFlight = asked();

  signalledAt = performance.now();
  site.child.kill("SIGTERM");
  const [code, signal] = await within(exited, 15_000, [null, "no exit within 15 s"]);
  if (signal === "no exit within 15 s") site.child.kill("SIGKILL");
  await Promise.all(clients);
  agent.destroy();

  const slowFinished = slowReplies.filter(
    (reply) => reply.status === 200 && reply.body.includes(`Backend Article ${reply.slug.split("-").at(-1)}:`),
  );
  const all = [...slowReplies.map((reply) => ({ ...reply, expected: 200 })), ...loopReplies];
  const after = all.filter((reply) => reply.startedAt >= signalledAt);
  return {
    slowInFlight,
    slowFinished: slowFinished.length,
    code,
    signal,
    exitMs: exitedAt - signalledAt,
    inFlight: all.filter((reply) => reply.startedAt < signalledAt && reply.endedAt > signalledAt).length,
    answeredAfter: after.filter((reply) => !reply.error).length,
    wrongStatus: all.filter((reply) => !reply.error && reply.status !== reply.expected).length,
    refusedAfter: after.filter((reply) => reply.error?.code === "ECONNREFUSED").length,
    retried: all.filter((reply) => reply.retried).length,
    // Dropped mid-request (reset, hang-up), even after a retry: what a visitor sees as a broken page.
    cut: all.filter((reply) => reply.error && reply.error.code !== "ECONNREFUSED").length,
  };
}

function printReport({ load, memory, timeline, staleServed, shutdown }) {
  const { result, byStatus, byPhase, unexpected } = load;
  const total = [...byStatus.values()].reduce((sum, n) => sum + n, 0);
  const statusLine = [...byStatus.entries()]
    .sort(([a], [b]) => String(a).localeCompare(String(b)))
    .map(([status, n]) => `${status} × ${n}`)
    .join(", ");
  const fiveHundreds = [...byStatus.entries()]
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);

  console.log(`\nrequests:        ${total} in ${result.duration} s (${Math.round(total / result.duration)}/s)`);
  console.log(`status codes:    ${statusLine || "none"}`);
  console.log(`unexpected 5xx:  ${fiveHundreds}`);
  console.log(
    `unexpected:      ${unexpected.size ? [...unexpected].map(([what, n]) => `${what} × ${n}`).join(", ") : "none"}`,
  );
  console.log(`errors:          ${result.errors} (timeouts ${result.timeouts})`);
  console.log(
    `latency:         p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(`backend phases:  ${timeline.join(" → ")}`);
  for (const [phase, counts] of byPhase) {
    console.log(`  ${phase.padEnd(8)} ${String(counts.responses).padStart(7)} responses, ${counts.fiveHundreds} 5xx`);
  }
  console.log(`stale copies:    ${staleServed} served in place of a failed refresh (server log)`);
  console.log(
    `server RSS:      start ${mb(memory.start)}, peak ${mb(memory.peak)}, end ${mb(memory.end)}, growth ${mb(memory.end - memory.start)}, ` +
      `last minute ${mb(memory.lastMinute)}`,
  );
  console.log(
    `shutdown:        SIGTERM with ${shutdown.inFlight} requests in flight, ${unseenSlugs.length} of them waiting on the ` +
      `backend (${shutdown.slowFinished} of those finished with 200)`,
  );
  console.log(
    `                 after the signal: ${shutdown.answeredAfter} answered on connections left open, ` +
      `${shutdown.refusedAfter} refused, ${shutdown.retried} retried after a reset before any answer, ` +
      `${shutdown.cut} cut off; exit code ${shutdown.code ?? shutdown.signal} ${Math.round(shutdown.exitMs)} ms after the signal`,
  );

  check(total > 0, `requests were answered (${total})`);
  check(fiveHundreds === 0, `no 5xx during the flapping (${fiveHundreds})`);
  check(unexpected.size === 0, "every route kept its expected status");
  check(result.errors === 0, `no connection errors or timeouts (${result.errors})`);
  check(staleServed > 0, `the outages reached the site: stale copies were served (${staleServed})`);
  check(
    memory.end - memory.start <= options.maxRssGrowthMb * 1024,
    `server RSS growth ${mb(memory.end - memory.start)} is within ${options.maxRssGrowthMb} MB`,
  );
  // Only a run of a few minutes has a last minute that comes after the caches have filled.
  if (options.seconds >= 180)
    check(
      memory.lastMinute <= options.maxLastMinuteGrowthMb * 1024,
      `memory levels off: the last minute added ${mb(memory.lastMinute)} of RSS (at most ${options.maxLastMinuteGrowthMb} MB)`,
    );
  check(shutdown.slowInFlight, `requests were in flight when SIGTERM was sent (${shutdown.inFlight})`);
  check(
    shutdown.slowFinished === unseenSlugs.length,
    `the requests waiting on the backend at SIGTERM finished with 200 (${shutdown.slowFinished}/${unseenSlugs.length})`,
  );
  check(shutdown.cut === 0, `no request was cut off during the shutdown (${shutdown.cut})`);
  check(
    shutdown.wrongStatus === 0,
    `every answer during the shutdown had its expected status (${shutdown.wrongStatus} did not)`,
  );
  check(shutdown.code === 0, `the server exited with code 0 (${shutdown.code ?? shutdown.signal})`);
  // The server cuts connections 10 s after the signal; getting there means the connections never drained.
  check(
    shutdown.exitMs < 9_000,
    `the server drained and exited by itself, before its 10 s forced exit (${Math.round(shutdown.exitMs)} ms)`,
  );
}

async function main() {
  console.log(
    `soak: ${options.seconds} s at ${options.connections} connections; backend switches every ${options.flapSeconds} s ` +
      `(${phaseOrder.join(" → ")}); site backend timeout ${TIMEOUT_MS} ms; ` +
      (options.heapMb ? `server heap capped at ${options.heapMb} MB` : "server heap uncapped"),
  );
  const flapping = await createFlappingBackend();
  let site;
  // A stuck step must not keep the machine busy: give up well after the load should have ended.
  const deadline = setTimeout(
    () => {
      console.error("soak: overall deadline passed, giving up");
      site?.child.kill("SIGKILL");
      process.exit(1);
    },
    (options.seconds + 90) * 1000,
  );
  const interrupt = () => {
    site?.child.kill("SIGKILL");
    process.exit(130);
  };
  process.once("SIGINT", interrupt);

  try {
    site = await startSite({
      BLOG_API_URL: flapping.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      BLOG_API_TIMEOUT_MS: String(TIMEOUT_MS),
      // Short, so every page is refreshed (and fails, and falls back) many times during the run.
      CACHE_FRESH_SECONDS: "1",
      // Without a cap V8 lets the heap grow by hundreds of MB before it collects, so RSS says little.
      // With one, RSS levels off unless memory is really retained, and a leak ends in a crash.
      ...(options.heapMb ? { NODE_OPTIONS: `--max-old-space-size=${options.heapMb}` } : {}),
    });
    await warmUp(site);
    console.log(`warm-up: ${mix.length} routes seen once with the backend healthy`);

    const memory = sampleMemory(site.child.pid);
    const timeline = ["healthy"];
    const flapper = flap(flapping, options.flapSeconds, timeline);
    const load = await runLoad(site, flapping);
    await flapper.stop();
    const memoryFigures = memory.stop();
    const staleServed = site.output().split("Serving a stale copy").length - 1;

    const shutdown = await shutDownUnderLoad(site, flapping);
    printReport({ load, memory: memoryFigures, timeline, staleServed, shutdown });
  } catch (error) {
    check(false, `the soak ran to the end (${error instanceof Error ? error.message : error})`);
  } finally {
    if (site && site.child.exitCode === null && site.child.signalCode === null) site.child.kill("SIGKILL");
    await flapping.close();
    clearTimeout(deadline);
    process.off("SIGINT", interrupt);
  }

  console.log("\nchecks:");
  for (const { ok, label } of checks) console.log(`  ${ok ? "PASS" : "FAIL"}  ${label}`);
  const failed = checks.filter((entry) => !entry.ok).length;
  console.log(failed ? `\nsoak FAILED: ${failed} check(s)` : "\nsoak passed");
  process.exitCode = failed ? 1 : 0;
}

await main();
