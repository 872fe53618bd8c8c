// `npm run bench:search`: the catalogue and the results page at 10,000 and 100,000 articles.
//
// 1. The catalogue alone (app/search, bundled here with esbuild): articles of about 1,500 words (English
//    with some Japanese and Thai), indexed into a fresh catalogue; then searches of one common word,
//    a made-up word and a common one, two words, a Japanese and a Thai word, a misspelt word (no result:
//    suggestion and looser matching), each with its count and snippets, and read next: p50 and p99 of
//    --searches runs of each (400: the p99 is the fourth slowest, where 66 made it the slowest of all, one
//    pause of the machine); the heap the process holds.
// 2. The site (production build) against the fake backend of 10,000 articles of ~9 KB: its first sync at
//    --sync-rate calls a second (the most calls seen in any second is printed: never above the setting);
//    then the results page as deployed (the page cache at its default, as readers meet a popular search)
//    against the minimal Remix page (bench/minimal): the target; and, from a second process on the same
//    catalogue, the results page rendered on every request (PAGE_CACHE_SECONDS=0) beside `/blog` rendered
//    on every request, which shows what a search adds to a render: each page --rounds times, the stores in
//    turns, the round of median rate kept. The server's heap after the load.
// Options: --sizes 10000,100000 --searches 400 --duration 10 --rounds 3 --connections 32 --sync-rate 200
// --site-articles 10000 (0: the catalogue alone) --store sqlite|postgres
// --store postgres (also `npm run bench:search --store postgres`): the same on PostgreSQL
// (CATALOGUE_DATABASE_URL), on a throwaway server of Debian's PostgreSQL on this machine
// (tests/support/postgres.mjs), beside SQLite in the same run: the same articles, the same queries taken in
// turns by the two stores, the results pages loaded in turns; the database's size and its server's memory
// (proportional set size of its processes) beside the file's. Target: PostgreSQL's results page rendered
// on every request at 0.8 × SQLite's rate or more.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { startPostgres } from "../tests/support/postgres.mjs";
import { freePort } from "../tests/support/site-process.mjs";
import { makeArticle, makeWords, random, TOPICAL } from "./search-articles.mjs";
import {
  backend,
  benchOptions,
  describeMachine,
  ensureBuild,
  load,
  median,
  root,
  runBenchmark,
  serverScript,
  site,
  stopLater,
} from "./bench-harness.mjs";

const P99_TARGET_MS = 50;
const RATE_TARGET = 0.5;
/** PostgreSQL's results page rendered on every request, against SQLite's. */
const POSTGRES_RATE_TARGET = 0.8;
const HEAP_LIMIT_MB = 384;

// `npm run bench:search --store postgres` (without `--`): npm takes `--store` for itself (npm_config_store) and
// passes `postgres` on alone.
if (process.env.npm_config_store !== undefined) {
  const given = process.argv.findIndex(
    (argument, index) =>
      index > 1 && ["sqlite", "postgres"].includes(argument) && process.argv[index - 1] !== "--store",
  );
  if (given !== -1) process.argv.splice(given, 1, "--store", process.argv[given]);
}

const options = benchOptions(
  {
    sizes: { default: "10000,100000" },
    searches: { default: 400, min: 10 },
    duration: { default: 10, min: 1 },
    rounds: { default: 3, min: 1 },
    connections: { default: 32, min: 1 },
    "sync-rate": { default: 200, min: 1 },
    "site-articles": { default: 10_000, min: 0 },
    store: { default: "sqlite" },
  },
  "node scripts/bench-search.mjs [--sizes 10000,100000] [--searches 400] [--duration 10] [--rounds 3] [--connections 32] [--sync-rate 200] [--site-articles 10000] [--store sqlite|postgres]",
);
if (!["sqlite", "postgres"].includes(options.store)) {
  console.error("--store must be sqlite or postgres");
  process.exit(2);
}
/** The stores measured: SQLite always, PostgreSQL beside it with --store postgres. */
const STORES = options.store === "postgres" ? ["sqlite", "postgres"] : ["sqlite"];
const STORE_NAMES = { sqlite: "SQLite", postgres: "PostgreSQL" };
/** The throwaway PostgreSQL of --store postgres. */
let postgres;

/** The catalogue's modules, bundled as the server's are (better-sqlite3 stays a package). */
async function catalogueModule() {
  // Inside the project, where its packages resolve (node_modules/.cache: neither committed nor linted).
  const outfile = path.join(root, "node_modules/.cache/bench-search/catalogue.mjs");
  await build({
    stdin: {
      contents: [
        'export { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";',
        'export { openPostgresCatalogue } from "~/search/pg-catalogue.server";',
        'export { createPool } from "~/database/postgres.server";',
        'export { migrate } from "~/database/postgres-schema.server";',
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

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** A fresh catalogue in `store`, and how much room it takes. */
async function openStore(modules, dir, size, store) {
  if (store === "sqlite") {
    const file = path.join(dir, `catalogue-${size}.sqlite`);
    return {
      catalogue: modules.openSqliteCatalogue(file),
      indexed: async () => {},
      sizeMb: async () => statSync(file).size / 1024 / 1024,
      close: async () => {},
    };
  }
  const pool = modules.createPool({ url: postgres.url, poolSize: 5 });
  await modules.migrate(pool);
  return {
    catalogue: modules.openPostgresCatalogue(pool, `bench-${size}`),
    // What autovacuum does after a bulk load: the planner's statistics (the GIN index used, not a scan).
    // Minutes at 100,000 articles: without the pool's statement and read timeouts.
    indexed: async () => {
      const client = await pool.connect();
      try {
        await client.query("SET statement_timeout = 0");
        // The pool's read timeout lifted too (pg reads query_timeout per query).
        await client.query({ text: "VACUUM ANALYZE", query_timeout: 6 * 3600_000 });
        // The pages the load and VACUUM dirtied, written now: otherwise the checkpointer writes gigabytes
        // during the timed searches, on the same two cores, as a server in service does not.
        await client.query({ text: "CHECKPOINT", query_timeout: 3600_000 });
      } finally {
        client.release();
      }
    },
    sizeMb: async () =>
      Number((await pool.query("SELECT pg_database_size(current_database()) AS bytes")).rows[0].bytes) / 1024 / 1024,
    close: () => pool.end(),
  };
}

/**
 * The memory of the throwaway PostgreSQL: the proportional set size of its processes (shared buffers counted
 * once across them), from /proc; undefined where /proc cannot tell.
 */
function postgresMemoryMb() {
  try {
    const processes = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    const parentOf = new Map();
    let postmaster;
    for (const pid of processes) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        parentOf.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        if (command.some((part) => part.endsWith("/postgres")) && command.join(" ").includes(`-p ${postgres.port}`))
          postmaster = pid;
      } catch {
        // A process that ended meanwhile.
      }
    }
    if (!postmaster) return undefined;
    let kb = 0;
    for (const pid of [postmaster, ...processes.filter((pid) => parentOf.get(pid) === postmaster)]) {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    }
    return kb / 1024;
  } catch {
    return undefined;
  }
}

/** Each store's catalogue of `size` articles, the same articles in each, then the same searches in turns. */
async function measureCatalogues(modules, dir, size) {
  const stores = [];
  let word;
  let next;
  for (const name of STORES) {
    const store = await openStore(modules, dir, size, name);
    // The same sequence for every store: the same articles, and then the same queries.
    next = random(size);
    word = makeWords(next);
    const started = performance.now();
    for (let index = 1; index <= size; index++) {
      await store.catalogue.putArticle(makeArticle(index, next, word));
      // A turn of the event loop now and then, so that Ctrl-C is heard.
      if (index % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const indexSeconds = (performance.now() - started) / 1000;
    await store.indexed();
    stores.push({ name, store, indexSeconds });
  }
  // The files just written reach the disk before the searches are timed (the kernel's write-back would run
  // beside them).
  execFileSync("sync");
  const queries = [
    ["one common word", () => TOPICAL[Math.floor(next() * TOPICAL.length)]],
    ["a made-up word and a common one", () => word() + " " + TOPICAL[0]],
    [
      "two words",
      () => `${TOPICAL[Math.floor(next() * TOPICAL.length)]} ${TOPICAL[Math.floor(next() * TOPICAL.length)]}`,
    ],
    ["Japanese word (瞑想)", () => "瞑想"],
    ["Thai word (สมาธิ)", () => "สมาธิ"],
    ["misspelt (no match: suggestion, loose)", () => "meditaton"],
  ];
  const rows = [];
  const timed = async (work) => {
    const at = performance.now();
    const result = await work();
    return { result, ms: performance.now() - at };
  };
  for (const [name, make] of queries) {
    const times = stores.map(() => []);
    const totals = stores.map(() => 0);
    for (let run = 0; run < options.searches; run++) {
      const query = make();
      const page = 1 + (run % 3);
      // The stores in turns, each first in turn, so that neither meets a busier machine.
      for (let turn = 0; turn < stores.length; turn++) {
        const index = (turn + run) % stores.length;
        const { result, ms } = await timed(() => stores[index].store.catalogue.search(query, page, 10));
        times[index].push(ms);
        totals[index] = result.total;
      }
    }
    rows.push({
      name,
      figures: stores.map((_, index) => ({
        total: totals[index],
        p50: median(times[index]),
        p99: percentile(times[index], 0.99),
      })),
    });
  }
  const relatedTimes = stores.map(() => []);
  for (let run = 0; run < options.searches; run++) {
    const about = {
      slug: `article-${run + 1}`,
      title: `${word()} ${TOPICAL[run % TOPICAL.length]} ${word()}`,
      keywords: [TOPICAL[run % TOPICAL.length], `${word()} ${word()}`],
    };
    for (let turn = 0; turn < stores.length; turn++) {
      const index = (turn + run) % stores.length;
      relatedTimes[index].push((await timed(() => stores[index].store.catalogue.related(about, 3))).ms);
    }
  }
  rows.push({
    name: "read next (related articles)",
    figures: stores.map((_, index) => ({
      total: 3,
      p50: median(relatedTimes[index]),
      p99: percentile(relatedTimes[index], 0.99),
    })),
  });
  global.gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  const summaries = [];
  for (const { name, store, indexSeconds } of stores) {
    const sizeMb = await store.sizeMb();
    const memory = name === "postgres" ? postgresMemoryMb() : undefined;
    summaries.push(
      `${STORE_NAMES[name]}: indexed in ${indexSeconds.toFixed(0)} s, ${name === "sqlite" ? "file" : "database"} ${sizeMb.toFixed(0)} MB` +
        (memory === undefined ? "" : `, server ${memory.toFixed(0)} MB (PSS)`),
    );
    store.catalogue.close();
    await store.close();
  }
  return { size, rows, heapMb, summaries };
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

/** The site on `store`, first synced from a fake backend of its own; then a second process rendering every request. */
async function startSiteOn(store) {
  const articles = options.siteArticles;
  const fake = await backend({ articles, bodyKb: 9 });
  const metricsPort = await freePort();
  const catalogueDir = mkdtempSync(path.join(os.tmpdir(), "bench-search-site-"));
  const databaseUrl = store === "postgres" ? await postgres.createDatabase("site") : undefined;
  stopLater(() => rmSync(catalogueDir, { recursive: true, force: true }));
  const started = performance.now();
  /** The site both processes serve, on one catalogue. */
  const siteSettings = {
    BLOG_API_URL: fake.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    SITE_DOMAIN: "zen.example.org",
    CATALOGUE_DIR: catalogueDir,
    ...(databaseUrl && { CATALOGUE_DATABASE_URL: databaseUrl }),
  };
  const server = await site({
    ...siteSettings,
    CATALOGUE_SYNC: "on",
    CATALOGUE_CALLS_PER_SECOND: String(options.syncRate),
    METRICS_PORT: String(metricsPort),
  });
  process.stdout.write(`${STORE_NAMES[store]}: first sync of ${articles} articles at ≤ ${options.syncRate} calls/s… `);
  while (fake.calls().filter((call) => call.path === "/get_details").length < articles)
    await new Promise((resolve) => setTimeout(resolve, 500));
  const syncSeconds = (performance.now() - started) / 1000;
  const busiest = busiestSecond(fake.calls());
  console.log(`${syncSeconds.toFixed(0)} s, at most ${busiest} calls in any second`);
  // The same catalogue read by a process that renders every request (it syncs nothing: one process syncs).
  const rendering = await site({ ...siteSettings, PAGE_CACHE_SECONDS: "0" });
  return { store, server, rendering, metricsPort, syncSeconds, busiest };
}

async function measureSite() {
  const sites = [];
  for (const store of STORES) sites.push(await startSiteOn(store));
  const minimal = await serverScript("bench/minimal/server.mjs", await freePort());
  const targets = [
    [
      "results page as deployed (page cache): `/search?q=breath`",
      (one) => `${one.server.url}/search?q=breath`,
      "target",
    ],
    [
      "results page as deployed (page cache): page 7 of `teacher bell`",
      (one) => `${one.server.url}/search?q=teacher+bell&page=7`,
      "target",
    ],
    [
      "results page rendered on every request: `/search?q=breath`",
      (one) => `${one.rendering.url}/search?q=breath`,
      "rendered",
    ],
    [
      "results page rendered on every request: page 7 of `teacher bell`",
      (one) => `${one.rendering.url}/search?q=teacher+bell&page=7`,
      "rendered",
    ],
    ["`/blog` rendered on every request (no search)", (one) => `${one.rendering.url}/blog`, "reference"],
  ];
  const rows = [];
  for (const [name, urlOf, kind] of targets) {
    // The stores in turns, page by page, each first in turn, --rounds times: a busier moment of the machine
    // falls on both alike, and each figure is the round of median rate (one run of 10 s varied by a fifth).
    const rounds = sites.map(() => []);
    for (let round = 0; round < options.rounds; round++) {
      for (let turn = 0; turn < sites.length; turn++) {
        const index = (turn + round) % sites.length;
        const one = sites[index];
        const url = urlOf(one);
        await load({ url, connections: options.connections, duration: 2 });
        const figures = await load({ url, connections: options.connections, duration: options.duration });
        rounds[index].push(figures);
        console.log(
          `${STORE_NAMES[one.store]}, ${name}, round ${round + 1}: ${Math.round(figures.requestsPerSecond)} req/s, p99 ${figures.p99} ms, errors ${figures.errors + figures.non2xx}`,
        );
      }
    }
    sites.forEach((one, index) => {
      const sorted = [...rounds[index]].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
      const errors = rounds[index].reduce((sum, figures) => sum + figures.errors, 0);
      const non2xx = rounds[index].reduce((sum, figures) => sum + figures.non2xx, 0);
      rows.push({ name, kind, store: one.store, ...sorted[Math.floor((sorted.length - 1) / 2)], errors, non2xx });
    });
  }
  await load({ url: `${minimal.url}/`, connections: options.connections, duration: 2 });
  const minimalFigures = await load({
    url: `${minimal.url}/`,
    connections: options.connections,
    duration: options.duration,
  });
  rows.push({ name: "minimal Remix page", kind: "minimal", store: undefined, ...minimalFigures });
  for (const one of sites) {
    const metrics = await (await fetch(`http://127.0.0.1:${one.metricsPort}/metrics`)).text();
    one.heap = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN) / 1024 / 1024;
    one.rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN) / 1024 / 1024;
  }
  return { articles: options.siteArticles, sites, rows, postgresMb: postgres ? postgresMemoryMb() : undefined };
}

await runBenchmark(async () => {
  ensureBuild();
  describeMachine();
  console.log("Building the minimal Remix app (bench/minimal)…");
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  const child = spawn(process.execPath, [cli, "build", "bench/minimal"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if ((await new Promise((resolve) => child.once("exit", resolve))) !== 0)
    throw new Error("building bench/minimal failed");

  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-search-"));
  stopLater(() => rmSync(dir, { recursive: true, force: true }));
  const modules = await catalogueModule();
  if (STORES.includes("postgres")) {
    postgres = await startPostgres();
    stopLater(() => postgres.stop());
    console.log(`PostgreSQL on this machine (${postgres.url}), beside SQLite`);
  }
  let failed = 0;
  const columns = STORES.map((store) => `${STORE_NAMES[store]} p50 | p99`).join(" | ");
  console.log(`\nEach search ${options.searches} times on each store, read next for ${options.searches} articles.`);
  console.log(`\n| articles | search | matches | ${columns} |\n|---|---|---|${STORES.map(() => "---|---|").join("")}`);
  const summaries = [];
  for (const size of String(options.sizes).split(",").map(Number)) {
    const result = await measureCatalogues(modules, dir, size);
    for (const row of result.rows) {
      const figures = row.figures.map((one) => `${one.p50.toFixed(1)} ms | ${one.p99.toFixed(1)} ms`).join(" | ");
      const totals = [...new Set(row.figures.map((one) => one.total))].join(" / ");
      console.log(`| ${size} | ${row.name} | ${totals} | ${figures} |`);
    }
    summaries.push(`${size} articles: ${result.summaries.join("; ")}; heap ${result.heapMb.toFixed(0)} MB`);
    if (result.rows.some((row) => row.figures.some((one) => one.p99 > P99_TARGET_MS))) failed++;
  }
  console.log(`\n${summaries.join("\n")}`);

  if (options.siteArticles === 0) return failed ? 1 : 0;
  const served = await measureSite();
  const minimal = served.rows.at(-1).requestsPerSecond;
  console.log(
    `\n| site of ${served.articles} articles | store | req/s | p99 | against the minimal page |\n|---|---|---|---|---|`,
  );
  for (const row of served.rows)
    console.log(
      `| ${row.name} | ${row.store ? STORE_NAMES[row.store] : ""} | ${Math.round(row.requestsPerSecond)} | ${row.p99} ms | ${(row.requestsPerSecond / minimal).toFixed(2)} × |`,
    );
  for (const one of served.sites) {
    console.log(
      `\n${STORE_NAMES[one.store]}: first sync ${one.syncSeconds.toFixed(0)} s, busiest second ${one.busiest} calls (setting ${options.syncRate}); server heap ${one.heap.toFixed(0)} MB, RSS ${one.rss.toFixed(0)} MB after the load`,
    );
    if (one.busiest > options.syncRate) failed++;
    if (one.heap > HEAP_LIMIT_MB) failed++;
    const rowsOf = served.rows.filter((row) => row.store === one.store);
    const blog = rowsOf.find((row) => row.kind === "reference").requestsPerSecond;
    for (const row of rowsOf.filter((row) => row.kind === "rendered")) {
      console.log(
        `${row.name}: ${(row.requestsPerSecond / blog).toFixed(2)} × \`/blog\` rendered on every request (${(1000 / row.requestsPerSecond - 1000 / blog).toFixed(1)} ms more a request on one core)`,
      );
    }
  }
  if (served.postgresMb !== undefined)
    console.log(`PostgreSQL server after the load: ${served.postgresMb.toFixed(0)} MB (PSS)`);
  if (served.rows.some((row) => row.kind === "target" && row.requestsPerSecond / minimal < RATE_TARGET)) failed++;
  if (STORES.includes("postgres")) {
    for (const row of served.rows.filter((one) => one.kind === "rendered" && one.store === "postgres")) {
      const sqlite = served.rows.find((one) => one.name === row.name && one.store === "sqlite").requestsPerSecond;
      const ratio = row.requestsPerSecond / sqlite;
      console.log(`PostgreSQL against SQLite, ${row.name}: ${ratio.toFixed(2)} × (target ≥ ${POSTGRES_RATE_TARGET} ×)`);
      if (ratio < POSTGRES_RATE_TARGET) failed++;
    }
  }
  console.log(failed ? `\n${failed} target(s) missed` : "\nEvery target met");
  return failed ? 1 : 0;
});
