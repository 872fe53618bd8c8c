// Readers' Web Vitals in a real browser (app/vitals, docs/decisions/047): a layout shift made on purpose
// reaches the metrics listener as CLS, with the element that moved; a client-side navigation sends the
// first page's report, for its own route, before the next; a crawler's or a headless browser's beacon is
// not counted; and the measurement stores nothing and asks no other host. Starts its own site with
// METRICS_PORT.
import type { Page } from "@playwright/test";
import { freePort, startSite } from "../support/site-process.mjs";
import { expect, test } from "./fixtures";
import { asBrowser, measuring, setHidden } from "./reader-browser";

let site: Awaited<ReturnType<typeof startSite>>;
let metricsPort: number;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  metricsPort = await freePort();
  site = await startSite({ METRICS_PORT: String(metricsPort), PAGE_CACHE_SECONDS: "0" });
});

test.afterAll(async () => {
  await site?.stop();
});

/** The value of a series in the metrics listener's exposition, 0 when it has none yet. */
async function metric(name: string, labels: Record<string, string> = {}) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split("\n")
    .find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

/** Every element label the CLS counter has for a route. */
async function clsElements(route: string) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text
    .split("\n")
    .filter(
      (line) =>
        line.startsWith("content_site_web_vitals_poor_elements_total{") &&
        line.includes('metric="CLS"') &&
        line.includes(`route="${route}"`),
    )
    .map((line) => /element="([^"]*)"/.exec(line)?.[1]);
}

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const hide = (page: Page) => setHidden(page);

/**
 * The bots' beacons so far, after hiding the page once more: the measuring script may be fetched but not
 * yet listening, and a page sends its one report whenever it is first hidden while it is.
 */
async function botBeaconsOnceHidden(page: Page) {
  await hide(page);
  return metric("content_site_beacons_total", { outcome: "bot" });
}

/** Every beacon the endpoint has had, whatever became of it. */
async function beaconsSoFar() {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("content_site_beacons_total{"))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

/** Moves everything in the main column down by 400 px, without any input from the reader. */
const shiftContent = (page: Page) =>
  page.evaluate(() => {
    const spacer = document.createElement("div");
    spacer.style.height = "400px";
    document.querySelector("main")!.prepend(spacer);
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });

test("a layout shift made in the page arrives as CLS with the element that moved, once the page is hidden; nothing stored, no other host @js @desktop", async ({
  context,
  page,
  thirdPartyRequests,
}) => {
  await asBrowser(page);
  const beacons: { url: string; method: string; type: string | undefined; cookie: string | undefined }[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/__beacon"))
      beacons.push({
        url: request.url(),
        method: request.method(),
        type: request.headers()["content-type"],
        cookie: request.headers().cookie,
      });
  });
  const home = { site: "default", route: "routes/_index" };
  const before = {
    cls: await metric("content_site_web_vitals_cls_count", home),
    lcp: await metric("content_site_web_vitals_lcp_seconds_count", home),
    beacons: await beaconsSoFar(),
  };

  await page.goto(`${site.url}/`);
  await measuring(page);
  await shiftContent(page);
  // Nothing is sent while the page is shown.
  expect(beacons).toEqual([]);
  expect(await beaconsSoFar()).toBe(before.beacons);

  // No cookie, nothing in localStorage or IndexedDB; sessionStorage holds at most the scroll positions.
  expect(await context.cookies()).toEqual([]);
  const storage = await page.evaluate(async () => ({
    local: localStorage.length,
    session: Object.keys(sessionStorage),
    databases: (await indexedDB.databases()).length,
  }));
  expect(storage.local).toBe(0);
  expect(storage.databases).toBe(0);
  expect(storage.session.filter((key) => key !== "positions")).toEqual([]);

  await hide(page);
  await expect.poll(() => metric("content_site_web_vitals_cls_count", home)).toBe(before.cls + 1);
  expect(await metric("content_site_web_vitals_cls_bucket", { ...home, le: "0.1" })).toBe(0);
  expect(await metric("content_site_web_vitals_cls_sum", home)).toBeGreaterThan(0.1);
  expect((await clsElements("routes/_index")).length).toBeGreaterThan(0);
  expect(await metric("content_site_web_vitals_lcp_seconds_count", home)).toBe(before.lcp + 1);
  expect(await metric("content_site_web_vitals_fcp_seconds_count", home)).toBeGreaterThanOrEqual(1);
  expect(await metric("content_site_web_vitals_ttfb_seconds_count", home)).toBeGreaterThanOrEqual(1);

  expect(beacons).toEqual([
    { url: `${site.url}/__beacon`, method: "POST", type: "text/plain;charset=UTF-8", cookie: undefined },
  ]);
  expect(thirdPartyRequests).toEqual([]);
});

test("a client-side navigation sends the first page's report, for its own route, before the next page's @js @desktop", async ({
  page,
}) => {
  await asBrowser(page);
  const count = (route: string) => metric("content_site_web_vitals_cls_count", { site: "default", route });
  const before = { home: await count("routes/_index"), blog: await count("routes/blog._index") };

  await page.goto(`${site.url}/`);
  await measuring(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Latest Articles & Insights" })).toBeVisible();
  // The home page's report left as the reader moved on, while the blog list is still open.
  await expect.poll(() => count("routes/_index")).toBe(before.home + 1);
  expect(await count("routes/blog._index")).toBe(before.blog);
  // The blog list's layout shifts are its own. The browser leaves out of CLS what shifts within 500 ms of
  // an input (the click on Blog): past that window the shift counts, however fast the list arrived.
  await page.waitForTimeout(600);
  await shiftContent(page);
  await hide(page);
  await expect.poll(() => count("routes/blog._index")).toBe(before.blog + 1);
  expect(await count("routes/_index")).toBe(before.home + 1);
  expect(
    await metric("content_site_web_vitals_cls_bucket", { site: "default", route: "routes/blog._index", le: "0.1" }),
  ).toBe(0);
  // A client-side navigation has no paint timings of its own: the blog list has no LCP.
  expect(
    await metric("content_site_web_vitals_lcp_seconds_count", { site: "default", route: "routes/blog._index" }),
  ).toBe(0);
});

test("a crawler's beacon and a headless browser's are not counted @js @desktop", async ({ browser, page }) => {
  const crawler = await browser.newPage();
  try {
    await asBrowser(crawler, GOOGLEBOT);
    const before = {
      bots: await metric("content_site_beacons_total", { outcome: "bot" }),
      counted: await metric("content_site_beacons_total", { outcome: "counted" }),
    };
    await crawler.goto(`${site.url}/`);
    await measuring(crawler);
    await shiftContent(crawler);
    // Hidden until its report has gone, as below.
    await expect.poll(() => botBeaconsOnceHidden(crawler)).toBe(before.bots + 1);

    // This browser as it is, but for navigator.webdriver: hiding the page sends the beacon from the
    // browser itself, with "HeadlessChrome" in its user agent and client hints. The measuring script may be
    // fetched but not yet listening: the page is hidden again until its one report has gone.
    await page
      .context()
      .addInitScript(() => Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }));
    await page.goto(`${site.url}/`);
    await measuring(page);
    await expect.poll(() => botBeaconsOnceHidden(page)).toBe(before.bots + 2);
    expect(await metric("content_site_beacons_total", { outcome: "counted" })).toBe(before.counted);
  } finally {
    await crawler.context().close();
  }
});
