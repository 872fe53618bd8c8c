// `npm run bench:sitemap`: what one cold sitemap response costs as the blog grows.
//
// The production build (server.mjs) reads a local fake backend answering each call in 50 ms, with 100 and
// with 100,000 articles. Every response is measured cold: a fresh server (empty data and page caches) for
// each request. For each sitemap file (the index, the fixed pages, the first, a middle and the last part
// of articles) it prints the slowest of the runs and the backend calls made; exits 1 when a response
// takes longer than the target.
// Options: --runs (cold requests per file), --backend-latency (ms per backend call).
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { startSite } from "../tests/support/site-process.mjs";
import { benchOptions, ensureBuild, runBenchmark } from "./bench-harness.mjs";

const TARGET_MS = 2000;
const SIZES = [100, 100_000];
const ARTICLES_PER_PART = 100;
/** The sitemap files a crawler would fetch, by name; the parts of articles as the index numbers them. */
function filesFor(articles) {
  const parts = Math.ceil(articles / ARTICLES_PER_PART);
  const files = [
    ["index", "/sitemap.xml"],
    ["fixed pages", "/sitemap-pages.xml"],
    ["articles, part 1", "/sitemap-articles.xml?part=1"],
  ];
  if (parts > 2)
    files.push([`articles, part ${Math.ceil(parts / 2)}`, `/sitemap-articles.xml?part=${Math.ceil(parts / 2)}`]);
  if (parts > 1) files.push([`articles, part ${parts}`, `/sitemap-articles.xml?part=${parts}`]);
  return files;
}

async function coldRequest(backend, path) {
  const site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "0" });
  try {
    backend.reset();
    const started = performance.now();
    const response = await fetch(site.url + path);
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
    return { ms, calls: backend.calls().length, urls: body.split("<loc>").length - 1 };
  } finally {
    await site.stop();
  }
}

const options = benchOptions(
  { runs: { default: 3, min: 1 }, "backend-latency": { default: 50, min: 0 } },
  "node scripts/bench-sitemap.mjs [--runs 3] [--backend-latency 50]",
);

await runBenchmark(async () => {
  ensureBuild();
  const latencyMs = options.backendLatency;
  console.log(
    `Cold sitemap responses, backend ${latencyMs} ms per call, slowest of ${options.runs} run(s), target ≤ ${TARGET_MS} ms\n`,
  );
  console.log("| articles | file | URLs | backend calls | cold response |");
  console.log("|---|---|---|---|---|");
  let missed = 0;
  for (const articles of SIZES) {
    const backend = await startFakeBackend({ articles, latencyMs });
    try {
      for (const [name, path] of filesFor(articles)) {
        const runs = [];
        for (let run = 0; run < options.runs; run += 1) runs.push(await coldRequest(backend, path));
        const worst = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
        if (worst.ms > TARGET_MS) missed += 1;
        console.log(
          `| ${articles.toLocaleString("en")} | ${name} (\`${path}\`) | ${worst.urls} | ${worst.calls} | ${Math.round(worst.ms)} ms |`,
        );
      }
    } finally {
      await backend.close();
    }
  }
  console.log(missed ? `\n${missed} response(s) over ${TARGET_MS} ms` : `\nEvery response within ${TARGET_MS} ms`);
  return missed ? 1 : 0;
});
