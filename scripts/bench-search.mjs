// `npm run bench:search`: the catalogue and the results page at 10,000 and 100,000 articles.
//
// 1. The catalogue alone (app/search, bundled here with esbuild): articles of about 1,500 words (English
//    with some Japanese and Thai), indexed into a fresh SQLite file; then searches of one common word,
//    one rare word, two words, a Japanese and a Thai word, a misspelt word (no result: suggestion and
//    looser matching), each with its count and snippets: p50 and p99; the heap the process holds.
// 2. The site (production build) against the fake backend of 10,000 articles of ~9 KB: its first sync at
//    --sync-rate calls a second (the most calls seen in any second is printed: never above the setting);
//    then the results page as deployed (the page cache at its default, as readers meet a popular search)
//    against the minimal Remix page (bench/minimal): the target; and, from a second process on the same
//    catalogue, the results page rendered on every request (PAGE_CACHE_SECONDS=0) beside `/blog` rendered
//    on every request, which shows what a search adds to a render. The server's heap after the load.
// Options: --sizes 10000,100000 --searches 400 --duration 10 --connections 32 --sync-rate 200
// --site-articles 10000 (0: the catalogue alone) --store sqlite|postgres
// --store postgres: the same on PostgreSQL (CATALOG_DATABASE_URL), on a throwaway server of Debian's
// PostgreSQL on this machine (tests/support/postgres.mjs); the database's size instead of the file's.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { startPostgres } from "../tests/support/postgres.mjs";
import { freePort } from "../tests/support/site-process.mjs";
import { backend, benchOptions, describeMachine, ensureBuild, load, median, root, runBenchmark, serverScript, site, stopLater } from "./bench-harness.mjs";

const P99_TARGET_MS = 50;
const RATE_TARGET = 0.5;
const HEAP_LIMIT_MB = 384;

const options = benchOptions(
  {
    sizes: { default: "10000,100000" },
    searches: { default: 400, min: 10 },
    duration: { default: 10, min: 1 },
    connections: { default: 32, min: 1 },
    "sync-rate": { default: 200, min: 1 },
    "site-articles": { default: 10_000, min: 0 },
    store: { default: "sqlite" },
  },
  "node scripts/bench-search.mjs [--sizes 10000,100000] [--searches 400] [--duration 10] [--connections 32] [--sync-rate 200] [--site-articles 10000] [--store sqlite|postgres]",
);
if (!["sqlite", "postgres"].includes(options.store)) {
  console.error("--store must be sqlite or postgres");
  process.exit(2);
}
/** The throwaway PostgreSQL of --store postgres. */
let postgres;

/** A deterministic pseudo-random sequence, so every run indexes the same text. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const COMMON = "the of and to in is that it for as with on be by this are from at or have an not but what all were when we there can your which their".split(" ");
const TOPICAL = "meditation breath mind zazen sitting practice teacher retreat silence posture compassion awareness koan sangha dharma bell cushion walking attention moment".split(" ");
const JAPANESE = "毎朝の瞑想で心を調える。坐禅は静かな場所と坐蒲があれば始められます。";
const THAI = "ฝึกสมาธิทุกวันช่วยให้จิตใจสงบ และมีสติอยู่กับลมหายใจ";

/** A vocabulary of made-up words, drawn with a Zipf-like skew as words of real prose are. */
function makeWords(next) {
  const syllables = "ka ri mo ten sa lu vi po ne da ro mi shu ta ge ba fo ly ze qu".split(" ");
  const words = Array.from({ length: 20_000 }, () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => syllables[Math.floor(next() * syllables.length)]).join(""));
  return () => {
    const roll = next();
    if (roll < 0.4) return COMMON[Math.floor(next() * COMMON.length)];
    if (roll < 0.45) return TOPICAL[Math.floor(next() * TOPICAL.length)];
    return words[Math.floor(words.length * next() ** 3)];
  };
}

function makeArticle(index, next, word) {
  const words = Array.from({ length: 1500 }, word);
  const body = [];
  for (let start = 0; start < words.length; start += 60) body.push(words.slice(start, start + 60).join(" ") + ".");
  if (index % 10 === 0) body.push(JAPANESE);
  if (index % 10 === 5) body.push(THAI);
  return {
    slug: `article-${index}`,
    title: `${word()} ${TOPICAL[index % TOPICAL.length]} ${word()} ${index}`,
    description: Array.from({ length: 25 }, word).join(" "),
    date: new Date(Date.UTC(2020, 0, 1) + index * 3_600_000).toISOString().slice(0, 10),
    keywords: [TOPICAL[index % TOPICAL.length], `${word()} ${word()}`],
    body: body.join("\n\n"),
  };
}

/** The catalogue's modules, bundled as the server's are (better-sqlite3 stays a package). */
async function catalogueModule() {
  // Inside the project, where its packages resolve (node_modules/.cache: neither committed nor linted).
  const outfile = path.join(root, "node_modules/.cache/bench-search/catalogue.mjs");
  await build({
    stdin: {
      contents: [
        'export { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";',
        'export { openPostgresCatalogue } from "~/search/pg-catalogue.server";',
        'export { createPool } from "~/search/pg-database.server";',
        'export { migrate } from "~/search/pg-schema.server";',
      ].join("\n"),
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    alias: { "~": path.join(root, "app") },
    outfile,
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** A fresh catalogue in the chosen store, and how much room it takes. */
async function openStore(modules, dir, size) {
  if (options.store === "sqlite") {
    const file = path.join(dir, `catalogue-${size}.sqlite`);
    return { catalogue: modules.openSqliteCatalogue(file), indexed: async () => {}, sizeMb: async () => statSync(file).size / 1024 / 1024, close: async () => {} };
  }
  const pool = modules.createPool({ url: postgres.url, poolSize: 5 });
  await modules.migrate(pool);
  return {
    catalogue: modules.openPostgresCatalogue(pool, `bench-${size}`),
    // What autovacuum does after a bulk load: the planner's statistics (the GIN index used, not a scan).
    indexed: () => pool.query("ANALYZE"),
    sizeMb: async () => {
      await pool.query("VACUUM ANALYZE");
      return Number((await pool.query("SELECT pg_database_size(current_database()) AS bytes")).rows[0].bytes) / 1024 / 1024;
    },
    close: () => pool.end(),
  };
}

async function measureCatalogue(modules, dir, size) {
  const store = await openStore(modules, dir, size);
  const catalogue = store.catalogue;
  const next = random(size);
  const word = makeWords(next);
  const started = performance.now();
  for (let index = 1; index <= size; index++) {
    await catalogue.putArticle(makeArticle(index, next, word));
    // A turn of the event loop now and then, so that Ctrl-C is heard.
    if (index % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const indexSeconds = (performance.now() - started) / 1000;
  await store.indexed();
  const queries = [
    ["one common word", () => TOPICAL[Math.floor(next() * TOPICAL.length)]],
    ["a made-up word and a common one", () => word() + " " + TOPICAL[0]],
    ["two words", () => `${TOPICAL[Math.floor(next() * TOPICAL.length)]} ${TOPICAL[Math.floor(next() * TOPICAL.length)]}`],
    ["Japanese word (瞑想)", () => "瞑想"],
    ["Thai word (สมาธิ)", () => "สมาธิ"],
    ["misspelt (no match: suggestion, loose)", () => "meditaton"],
  ];
  const rows = [];
  for (const [name, make] of queries) {
    const times = [];
    let total = 0;
    for (let run = 0; run < options.searches / queries.length; run++) {
      const query = make();
      const page = 1 + (run % 3);
      const at = performance.now();
      total = (await catalogue.search(query, page, 10)).total;
      times.push(performance.now() - at);
    }
    rows.push({ name, total, p50: median(times), p99: percentile(times, 0.99) });
  }
  const relatedTimes = [];
  for (let run = 0; run < 100; run++) {
    const at = performance.now();
    await catalogue.related({ slug: `article-${run + 1}`, title: `${word()} ${TOPICAL[run % TOPICAL.length]} ${word()}`, keywords: [TOPICAL[run % TOPICAL.length], `${word()} ${word()}`] }, 3);
    relatedTimes.push(performance.now() - at);
  }
  rows.push({ name: "read next (related articles)", total: 3, p50: median(relatedTimes), p99: percentile(relatedTimes, 0.99) });
  global.gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  const fileMb = await store.sizeMb();
  catalogue.close();
  await store.close();
  return { size, indexSeconds, rows, heapMb, fileMb };
}

/** The most calls the backend saw in any one second. */
function busiestSecond(calls) {
  let most = 0;
  let start = 0;
  for (let end = 0; end < calls.length; end++) {
    while (calls[end].at - calls[start].at >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

async function measureSite() {
  const articles = options.siteArticles;
  const fake = await backend({ articles, bodyKb: 9 });
  const metricsPort = await freePort();
  const catalogDir = mkdtempSync(path.join(os.tmpdir(), "bench-search-site-"));
  const databaseUrl = postgres && (await postgres.createDatabase("site"));
  stopLater(() => rmSync(catalogDir, { recursive: true, force: true }));
  const started = performance.now();
  /** The site both processes serve, on one catalogue. */
  const siteSettings = {
    BLOG_API_URL: fake.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    SITE_DOMAIN: "zen.example.org",
    CATALOG_DIR: catalogDir,
    ...(databaseUrl && { CATALOG_DATABASE_URL: databaseUrl }),
  };
  const server = await site({
    ...siteSettings,
    CATALOG_SYNC: "on",
    CATALOG_CALLS_PER_SECOND: String(options.syncRate),
    METRICS_PORT: String(metricsPort),
  });
  process.stdout.write(`First sync of ${articles} articles at ≤ ${options.syncRate} calls/s… `);
  while (fake.calls().filter((call) => call.path === "/get_details").length < articles) await new Promise((resolve) => setTimeout(resolve, 500));
  const syncSeconds = (performance.now() - started) / 1000;
  const busiest = busiestSecond(fake.calls());
  console.log(`${syncSeconds.toFixed(0)} s, at most ${busiest} calls in any second`);
  // The same catalogue read by a process that renders every request (it syncs nothing: one process syncs).
  const rendering = await site({ ...siteSettings, PAGE_CACHE_SECONDS: "0" });
  const minimal = await serverScript("bench/minimal/server.mjs", await freePort());
  const targets = [
    ["results page as deployed (page cache): `/search?q=breath`", `${server.url}/search?q=breath`, "target"],
    ["results page as deployed (page cache): page 7 of `teacher bell`", `${server.url}/search?q=teacher+bell&page=7`, "target"],
    ["results page rendered on every request: `/search?q=breath`", `${rendering.url}/search?q=breath`, "rendered"],
    ["results page rendered on every request: page 7 of `teacher bell`", `${rendering.url}/search?q=teacher+bell&page=7`, "rendered"],
    ["`/blog` rendered on every request (no search)", `${rendering.url}/blog`, "reference"],
    ["minimal Remix page", `${minimal.url}/`, "minimal"],
  ];
  const rows = [];
  for (const [name, url, kind] of targets) {
    await load({ url, connections: options.connections, duration: 2 });
    const figures = await load({ url, connections: options.connections, duration: options.duration });
    rows.push({ name, kind, ...figures });
    console.log(`${name}: ${Math.round(figures.requestsPerSecond)} req/s, p99 ${figures.p99} ms, errors ${figures.errors + figures.non2xx}`);
  }
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const heap = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN) / 1024 / 1024;
  const rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN) / 1024 / 1024;
  return { articles, syncSeconds, busiest, rows, heap, rss };
}

await runBenchmark(async () => {
  ensureBuild();
  describeMachine();
  console.log("Building the minimal Remix app (bench/minimal)…");
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  const child = spawn(process.execPath, [cli, "build", "bench/minimal"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if ((await new Promise((resolve) => child.once("exit", resolve))) !== 0) throw new Error("building bench/minimal failed");

  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-search-"));
  stopLater(() => rmSync(dir, { recursive: true, force: true }));
  const modules = await catalogueModule();
  if (options.store === "postgres") {
    postgres = await startPostgres();
    stopLater(() => postgres.stop());
    console.log(`Store: PostgreSQL on this machine (${postgres.url})`);
  }
  let failed = 0;
  console.log(`\n| articles | search | matches | p50 | p99 |\n|---|---|---|---|---|`);
  const summaries = [];
  for (const size of String(options.sizes).split(",").map(Number)) {
    const result = await measureCatalogue(modules, dir, size);
    for (const row of result.rows) console.log(`| ${size} | ${row.name} | ${row.total} | ${row.p50.toFixed(1)} ms | ${row.p99.toFixed(1)} ms |`);
    summaries.push(`${size} articles: indexed in ${result.indexSeconds.toFixed(0)} s, ${options.store === "sqlite" ? "file" : "database"} ${result.fileMb.toFixed(0)} MB, heap ${result.heapMb.toFixed(0)} MB`);
    if (result.rows.some((row) => row.p99 > P99_TARGET_MS)) failed++;
  }
  console.log(`\n${summaries.join("\n")}`);

  if (options.siteArticles === 0) return failed ? 1 : 0;
  const served = await measureSite();
  const minimal = served.rows.at(-1).requestsPerSecond;
  console.log(`\n| site of ${served.articles} articles | req/s | p99 | against the minimal page |\n|---|---|---|---|`);
  for (const row of served.rows) console.log(`| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p99} ms | ${(row.requestsPerSecond / minimal).toFixed(2)} × |`);
  console.log(`\nFirst sync: ${served.syncSeconds.toFixed(0)} s, busiest second ${served.busiest} calls (setting ${options.syncRate}); server heap ${served.heap.toFixed(0)} MB, RSS ${served.rss.toFixed(0)} MB after the load`);
  if (served.busiest > options.syncRate) failed++;
  const blog = served.rows.find((row) => row.kind === "reference").requestsPerSecond;
  for (const row of served.rows.filter((row) => row.kind === "rendered")) {
    console.log(`${row.name}: ${(row.requestsPerSecond / blog).toFixed(2)} × \`/blog\` rendered on every request (${(1000 / row.requestsPerSecond - 1000 / blog).toFixed(1)} ms more a request on one core)`);
  }
  if (served.rows.some((row) => row.kind === "target" && row.requestsPerSecond / minimal < RATE_TARGET)) failed++;
  if (served.heap > HEAP_LIMIT_MB) failed++;
  console.log(failed ? `\n${failed} target(s) missed` : "\nEvery target met");
  return failed ? 1 : 0;
});
