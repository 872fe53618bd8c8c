// `npm run bench:crawl`: a crawler sweeping a network of sites, where nearly every page is one nobody asked
// for within the cache period, so each is a full render.
//
// One server process with a sites file of 20 sites, all on the fake hosted backend (50 ms a call, 500
// articles each, bodies of about 8 KB). For each site the crawler reads the sitemap index and its parts,
// then fetches every article once, the sites interleaved as a crawler of many sites would, at 32
// connections: cold (empty caches), then the same sweep again, warm. Reports req/s, p99, backend calls per
// page and resident memory (peak, and at each quarter of the sweep, to show it levels off). Exits 1 when a
// page fails or the peak passes the memory bound.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { rssKb } from "../tests/support/site-process.mjs";
import {
  backend as startBackend,
  benchOptions,
  describeMachine,
  ensureBuild,
  runBenchmark,
  site as startSite,
  stopLater,
} from "./bench-harness.mjs";

/** The heap limit `npm start` gives the server (package.json). */
const PRODUCTION_NODE_OPTIONS = "--max-old-space-size=384";
/**
 * What resident memory may reach however many pages are swept. What is kept is bounded by size: the three
 * backend-reply caches (64 MB each by their estimate, app/blog/cache.server.ts), the page cache (32 MB,
 * server/page-cache.ts) and image sources (64 MB). The JavaScript heap is held to 384 MB, so V8 collects
 * garbage before it passes that; with the rest of the process (code, buffers, the young generation) that
 * makes 600 MB. Left to itself on this 24 GB machine, V8 let the heap pass 900 MB (docs/decisions/024).
 */
const MEMORY_BOUND_MB = 600;

const options = benchOptions(
  {
    sites: { default: 20, min: 1 },
    articles: { default: 500, min: 1 },
    connections: { default: 32, min: 1 },
    "backend-latency": { default: 50, min: 0 },
    "body-kb": { default: 8, min: 0 },
    // For the server process: by default the heap limit `npm start` gives it; "" for V8's own.
    "node-options": { default: PRODUCTION_NODE_OPTIONS },
  },
  'node scripts/bench-crawl.mjs [--sites 20] [--articles 500] [--connections 32] [--backend-latency 50] [--body-kb 8] [--node-options "--max-old-space-size=384"]',
);

await runBenchmark(async () => {
  ensureBuild();
  console.log(
    `Crawl: ${options.sites} sites × ${options.articles} articles (bodies ~${options.bodyKb} KB), backend ${options.backendLatency} ms a call, ` +
      `${options.connections} connections`,
  );
  describeMachine();
  const backend = await startBackend({
    articles: options.articles,
    latencyMs: options.backendLatency,
    bodyKb: options.bodyKb,
  });
  const directory = await mkdtemp(path.join(os.tmpdir(), "bench-crawl-"));
  stopLater(() => rm(directory, { recursive: true, force: true }));
  const hosts = Array.from({ length: options.sites }, (_, index) => `crawl-${index + 1}.example.test`);
  const sitesFile = path.join(directory, "sites.yaml");
  await writeFile(
    sitesFile,
    `sites:\n${hosts.map((host, index) => `  - hosts: [${host}]\n    SITE_NAME: Sangha ${index + 1}\n`).join("")}`,
  );
  const site = await startSite({
    SITES_FILE: sitesFile,
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    ...(options.nodeOptions && { NODE_OPTIONS: options.nodeOptions }),
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const get = (host, pathAndQuery, encoding = "gzip, deflate, br") =>
    request(agent, site.port, host, pathAndQuery, encoding);

  // The crawler's list: every article each sitemap names, the sites taken in turn.
  backend.reset();
  const sitemapStarted = performance.now();
  const perSite = await Promise.all(hosts.map((host) => articlesInSitemap(get, host)));
  const sitemapSeconds = (performance.now() - sitemapStarted) / 1000;
  const sitemapCalls = backend.calls().length;
  const pages = interleave(perSite);
  console.log(
    `Sitemaps: ${hosts.length} indexes and their parts read in ${sitemapSeconds.toFixed(1)} s (${sitemapCalls} backend calls); ` +
      `${pages.length} articles to fetch\n`,
  );

  const sweeps = [];
  for (const name of ["cold", "warm"]) {
    backend.reset();
    const sweep = await sweepPages(get, pages, site.child.pid);
    sweeps.push({ name, ...sweep, callsPerPage: backend.calls().length / pages.length });
    console.log(`${name} sweep done: ${Math.round(sweep.requestsPerSecond)} req/s`);
  }

  console.log(
    `\n| sweep | pages | req/s | p50 ms | p99 ms | backend calls per page | peak RSS | RSS at ¼ ½ ¾ end | failed |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const sweep of sweeps) {
    console.log(
      `| ${sweep.name} | ${pages.length} | ${Math.round(sweep.requestsPerSecond)} | ${sweep.p50} | ${sweep.p99} | ${sweep.callsPerPage.toFixed(2)} | ` +
        `${sweep.peakMb} MB | ${sweep.quarterMb.join(" / ")} MB | ${sweep.failed} |`,
    );
  }
  const peak = Math.max(...sweeps.map((sweep) => sweep.peakMb));
  const failed = sweeps.reduce((sum, sweep) => sum + sweep.failed, 0);
  console.log(
    `\nMemory bound ${MEMORY_BOUND_MB} MB: peak ${peak} MB, ${peak <= MEMORY_BOUND_MB ? "held" : "EXCEEDED"}`,
  );
  if (failed) console.log(`${failed} page(s) did not answer 200`);
  return peak <= MEMORY_BOUND_MB && failed === 0 ? 0 : 1;
});

function request(agent, port, host, pathAndQuery, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: "127.0.0.1", port, path: pathAndQuery, headers: { Host: host, "Accept-Encoding": encoding }, agent },
        (response) => {
          const chunks = [];
          response.on("data", (chunk) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
        },
      )
      .on("error", reject);
  });
}

function locs(xml) {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1].replace(/&amp;/g, "&")));
}

/** The article paths a site's sitemap index leads to. */
async function articlesInSitemap(get, host) {
  const read = async (pathAndQuery) => {
    const reply = await get(host, pathAndQuery, "identity");
    if (reply.status !== 200) throw new Error(`${host}${pathAndQuery} answered ${reply.status}`);
    return reply.body.toString("utf8");
  };
  const parts = locs(await read("/sitemap.xml")).filter((url) => url.pathname === "/sitemap-articles.xml");
  const articles = [];
  for (const part of parts)
    articles.push(...locs(await read(part.pathname + part.search)).map((url) => ({ host, path: url.pathname })));
  return articles;
}

/** One from each site in turn: a crawler of many sites spreads its requests. */
function interleave(lists) {
  const result = [];
  for (let index = 0; lists.some((list) => index < list.length); index += 1)
    for (const list of lists) if (index < list.length) result.push(list[index]);
  return result;
}

/** Every page once at the given concurrency; figures and resident memory sampled every 100 ms. */
async function sweepPages(get, pages, pid) {
  const latencies = [];
  const rss = [];
  let failed = 0;
  let next = 0;
  const sample = setInterval(() => rss.push({ at: next / pages.length, mb: Math.round(rssKb(pid) / 1024) }), 100);
  const started = performance.now();
  const worker = async () => {
    while (next < pages.length) {
      const { host, path: pagePath } = pages[next++];
      const begin = performance.now();
      const reply = await get(host, pagePath);
      latencies.push(performance.now() - begin);
      if (reply.status !== 200) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sample);
  rss.push({ at: 1, mb: Math.round(rssKb(pid) / 1024) });
  latencies.sort((a, b) => a - b);
  const at = (fraction) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]);
  const quarterMb = [0.25, 0.5, 0.75, 1].map(
    (quarter) => rss.find((point) => point.at >= quarter)?.mb ?? rss.at(-1).mb,
  );
  return {
    requestsPerSecond: pages.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    peakMb: Math.max(...rss.map((point) => point.mb)),
    quarterMb,
    failed,
  };
}
