// The conditions of the abort of docs/decisions/038, in a process of its own: `node --expose-gc` on this file
// (bundled by tests/server/statement-gc.test.ts). Catalogues are opened, synced from the test's fake backend,
// searched, then dropped, some closed and some not, and the garbage collector is forced both from JavaScript
// and from a task outside any JavaScript context, where better-sqlite3 12 on Node 24.19 or later aborts when
// it frees a statement. Prints "ok ROUNDS rounds, N searches" when the process survives.
// Usage: node --expose-gc --max-semi-space-size=1 statement-gc.mjs BACKEND_URL TOKEN ARTICLES [ROUNDS]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHttpSource } from "~/blog/http-source.server";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { startSync } from "~/search/sync.server";

type Collect =
  ((options?: { type?: "major" | "minor"; execution?: "sync" | "async" }) => Promise<void> | void) | undefined;
const collect = (globalThis as { gc?: Collect }).gc;
if (!collect) throw new Error("run with node --expose-gc");

const [baseUrl = "", token = "", articles = "", rounds = "12"] = process.argv.slice(2);
const ARTICLES = Number(articles);
const ROUNDS = Number(rounds);
const QUERIES = [
  "meditation",
  "breath",
  "zen practice",
  "thien",
  "mind -habit",
  "walks slowly",
  "瞑想",
  "no such word here",
];

const dir = mkdtempSync(path.join(tmpdir(), "statement-gc-"));
const source = createHttpSource({ baseUrl, token, timeoutMs: 5000 });
let searches = 0;

/** One catalogue's life: opened, synced, searched, stopped; closed on even rounds, only dropped on odd ones. */
async function live(round: number) {
  // Three files in turn: a new catalogue, then ones that sync again over what they hold.
  const catalogue = openSqliteCatalogue(path.join(dir, `catalogue-${round % 3}.sqlite`));
  const sync = startSync({
    catalogue,
    source,
    domain: "zen.example.org",
    callsPerSecond: 1000,
    freshMs: 60_000,
    sweepMs: 3_600_000,
    label: "gc",
  });
  const end = Date.now() + 20_000;
  while ((await catalogue.count()).withBody < ARTICLES) {
    if (Date.now() > end) throw new Error(`round ${round}: the sync did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  for (const query of QUERIES) {
    for (let page = 1; page <= 2; page++) await catalogue.search(query, page, 10);
    searches += 2;
  }
  await sync.stop();
  if (round % 2 === 0) catalogue.close();
}

/** Catalogues opened on a synced file for one search each and dropped at once: statements that die young. */
async function glimpse(round: number) {
  for (let index = 0; index < 4; index++) {
    const catalogue = openSqliteCatalogue(path.join(dir, `catalogue-${round % 3}.sqlite`));
    await catalogue.search(QUERIES[(round + index) % QUERIES.length]!, 1, 10);
    searches += 1;
    if (index % 2 === 0) catalogue.close();
  }
}

try {
  for (let round = 0; round < ROUNDS; round++) {
    await live(round);
    await glimpse(round);
    // The round's catalogues and their statements are garbage now. A burst of short-lived objects fills the
    // young generation, and V8 collects it in a task of its own, outside any JavaScript context, once the
    // event loop turns: that is where better-sqlite3 12 aborts on Node 24.19 or later. Then the collector is
    // forced, from a task and from JavaScript.
    let young: { index: number; text: string }[] | undefined = [];
    for (let index = 0; index < 20_000; index++) young.push({ index, text: `young ${index}` });
    young = undefined;
    await new Promise((resolve) => setTimeout(resolve, 2));
    await collect({ type: "major", execution: "async" });
    collect();
  }
  console.log(`ok ${ROUNDS} rounds, ${searches} searches`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
