// Readers' beacons in Chromium, Firefox and WebKit (app/vitals, app/counts; docs/decisions/047, 050 and 052):
// what each engine measures, how it leaves a page, and what it keeps (Chromium's element labels, bots and the
// client-side navigations are in tests/e2e/web-vitals.spec.ts). A reader opens the home page, whose content is moved on purpose, then an article
// on one origin and the same article on a second origin of the same site, both on one PostgreSQL. Each page
// left sends one report: the views arrive, the reader counts once across the two origins, the article read
// to its end on one origin counts one end, the layout shift
// arrives as CLS where the engine measures layout shifts (neither of these does today; none is invented),
// nothing is written to cookies or storage, and the counts are in the store once the origins stop (a
// restart keeps them). Bots and opted-out readers: the server's checks, the same whatever the engine
// (tests/server/web-vitals.test.ts, tests/server/counts.test.ts).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { startPostgres } from "../support/postgres.mjs";
import { freePort, startSite } from "../support/site-process.mjs";
import { engineNames, launch, type EngineName } from "./support/engines";
import { CONSOLE_KEY, startHookProxy } from "./support/hook-proxy.mjs";
import { waitForHydration, withoutNotFoundNotice } from "./support/page-checks";

type Row = { kind: string; page: string; key: string; n: number };
const ARTICLE = "/blog/zazen-posture-for-beginners";

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let database: string;
beforeAll(async () => {
  postgres = await startPostgres();
  database = await postgres.createDatabase("beacons");
}, 60_000);
afterAll(() => postgres?.stop(), 30_000);

async function counts(): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query<Row>("SELECT kind, page, key, n::int AS n FROM counts")).rows;
  } finally {
    await client.end();
  }
}
const sum = (rows: Row[], kind: string, page = "") =>
  rows.filter((row) => row.kind === kind && row.page === page).reduce((total, row) => total + row.n, 0);

/** The value of a series of the metrics listener, 0 when it has none yet. */
async function metric(port: number, name: string, labels: Record<string, string>) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split("\n")
    .find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** Once the page is hydrated and has fetched its measuring script (loaded after the first paint). */
const measuring = `performance.getEntriesByType("resource").some((entry) => entry.name.includes("/measure.client-"))`;

/** Moves the main column down by 400 px, with no input from the reader. */
const shiftContent = `(() => {
  const spacer = document.createElement("div");
  spacer.style.height = "400px";
  document.querySelector("main").prepend(spacer);
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))));
})()`;

/** Scrolls to the end of the page; done once an observer of the article's last element, like the page's, has seen it. */
const readToTheEnd = `new Promise((resolve) => {
  const end = document.querySelector(".article-body>:last-child");
  new IntersectionObserver((entries, observer) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    setTimeout(() => resolve(true), 100);
  }).observe(end);
  end.scrollIntoView({ block: "center" });
})`;

const stored = `(async () => ({
  cookie: document.cookie,
  local: localStorage.length,
  session: Object.keys(sessionStorage),
  databases: indexedDB.databases ? (await indexedDB.databases()).length : 0,
}))()`;

const engines: EngineName[] = ["chromium", ...engineNames];

describe.each(engines)("%s", (engine) => {
  test("a reader's pages are counted once each, one visitor across two origins, an article's end once, CLS as the engine measures it, nothing stored, counts kept at a stop", async () => {
    const metricsPort = await freePort();
    const env = { CATALOGUE_DATABASE_URL: database, PAGE_CACHE_SECONDS: "0" };
    const origins = await Promise.all([startSite({ ...env, METRICS_PORT: String(metricsPort) }), startSite(env)]);
    const proxies = await Promise.all(origins.map((origin) => startHookProxy(origin.url, { asReader: true })));
    const page = await launch(engine, { width: 1280, height: 800, asReader: true }, inject("webkitDriverUrl"));
    try {
      // The article counts once the catalogue has it (its first sync, at start).
      for (const origin of origins) {
        await expect
          .poll(
            async () => (await (await fetch(`${origin.url}/search?q=zazen`)).text()).includes(`href="${ARTICLE}"`),
            { timeout: 30_000 },
          )
          .toBe(true);
      }
      const before = await counts();
      const home = { site: "default", route: "routes/_index" };
      const cls = await metric(metricsPort, "content_site_web_vitals_cls_count", home);
      const lcp = await metric(metricsPort, "content_site_web_vitals_lcp_seconds_count", home);

      await page.goto(`${proxies[0]!.url}/`);
      await waitForHydration(page);
      await page.waitFor(measuring, "the measuring script");
      const measures = await page.evaluate<string[]>("PerformanceObserver.supportedEntryTypes");
      await page.evaluate(shiftContent);
      // Leaving a page sends its report: the home page's, then each article's.
      await page.goto(`${proxies[0]!.url}${ARTICLE}`);
      await page.waitFor(measuring, "the measuring script");
      // Read to its end on the first origin only (an IntersectionObserver on the body's last element).
      await page.evaluate(readToTheEnd);
      await page.goto(`${proxies[1]!.url}${ARTICLE}`);
      await page.waitFor(measuring, "the measuring script");
      const storage = await page.evaluate<{ cookie: string; local: number; session: string[]; databases: number }>(
        stored,
      );
      const problems = withoutNotFoundNotice(await page.consoleProblems());
      await page.goto(`${proxies[1]!.url}/robots.txt`);

      // The home page's report: CLS and LCP where the engine has their entries (Chromium: both; Firefox ESR
      // 153: LCP, not layout shifts; WebKitGTK: neither), none made up where it has not; TTFB from every engine.
      await expect
        .poll(() => metric(metricsPort, "content_site_web_vitals_ttfb_seconds_count", home), { timeout: 15_000 })
        .toBeGreaterThan(0);
      expect({
        cls: await metric(metricsPort, "content_site_web_vitals_cls_count", home),
        lcp: await metric(metricsPort, "content_site_web_vitals_lcp_seconds_count", home),
      }).toEqual({
        cls: measures.includes("layout-shift") ? cls + 1 : cls,
        lcp: measures.includes("largest-contentful-paint") ? lcp + 1 : lcp,
      });

      // Nothing kept in the browser: the test's own console record is the only key in sessionStorage.
      expect({
        ...storage,
        session: storage.session.filter((key) => key !== CONSOLE_KEY && key !== "positions"),
      }).toEqual({ cookie: "", local: 0, session: [], databases: 0 });
      expect(problems).toEqual([]);

      // Both origins stop at once: what they had not written yet is written as they stop.
      await expect.poll(() => proxies[1]!.requests(/^\/__beacon/).length, { timeout: 15_000 }).toBe(1);
      await Promise.all(origins.map((origin) => origin.stop()));
      const after = await counts();
      const added = (kind: string, where = "") => sum(after, kind, where) - sum(before, kind, where);
      expect({
        homeViews: added("views", "routes/_index"),
        articleViews: added("views", ARTICLE),
        articleVisitors: added("visitors", ARTICLE),
        siteViews: added("views"),
        siteVisitors: added("visitors"),
        articleEnds: added("read_end", ARTICLE),
      }).toEqual({ homeViews: 1, articleViews: 2, articleVisitors: 1, siteViews: 3, siteVisitors: 1, articleEnds: 1 });
    } finally {
      await page.close();
      for (const proxy of proxies) await proxy.stop();
      await Promise.all(origins.map((origin) => origin.stop()));
    }
  }, 120_000);
});
