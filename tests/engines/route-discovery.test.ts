// Leaving a page, or following a link, while the framework could be asking the server about routes
// (Remix's /__manifest) logs nothing and reaches the right page (docs/decisions/034). The proxy holds every
// /__manifest request for 2 s, so a reader who leaves right after the page came alive leaves while any such
// request is in flight. Chromium's test is tests/e2e/route-discovery.spec.ts.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { engineNames, launch, type EnginePage } from "./support/engines";
import { startHookProxy } from "./support/hook-proxy.mjs";
import { isSameDocument, markDocument, sleep, waitForHydration, waitForPage } from "./support/page-checks";

const BLOG_HEADING = "Latest Articles & Insights";
const ARTICLE = { path: "/blog/a-day-at-sesshin", heading: "A Day at Sesshin: Inside a Zen Retreat" };
/** Long enough for the page's own discovery to have started after hydration. */
const SETTLE_MS = 300;

describe.each(engineNames)("%s", (engine) => {
  let proxy: Awaited<ReturnType<typeof startHookProxy>>;
  let page: EnginePage;

  beforeAll(async () => {
    proxy = await startHookProxy(inject("demoUrl"));
    proxy.hold(/^\/__manifest/, 2_000);
    page = await launch(engine, { width: 1280, height: 800 }, inject("webkitDriverUrl"));
  });
  afterAll(async () => {
    await page?.close();
    await proxy?.stop();
  });

  /** Opens `path`, forgets what was logged before, and waits until the page is live and may be discovering routes. */
  async function openLive(path: string) {
    await page.goto(`${proxy.url}${path}`);
    await page.clearConsole();
    await waitForHydration(page);
    await sleep(SETTLE_MS);
  }

  test("a full page load to another page just after the page came alive logs nothing", async () => {
    await openLive("/");
    await page.goto(`${proxy.url}/blog`);
    await waitForPage(page, "/blog", BLOG_HEADING);
    await waitForHydration(page);
    expect(await page.consoleProblems()).toEqual([]);
  });

  test("a reload just after the page came alive logs nothing", async () => {
    await openLive(ARTICLE.path);
    await page.evaluate(markDocument);
    await page.reload();
    // The reloaded document, not the old one an engine may still answer for just after reload() returns.
    await page.waitFor(`!(${isSameDocument})`, "the reloaded document");
    await waitForPage(page, ARTICLE.path, ARTICLE.heading);
    await waitForHydration(page);
    expect(await page.consoleProblems()).toEqual([]);
  });

  test("a link followed just after the page came alive reaches its page in the same document and logs nothing", async () => {
    await page.goto(`${proxy.url}/`);
    await page.clearConsole();
    await waitForHydration(page);
    await page.evaluate(markDocument);
    await page.click('header nav a[href="/blog"]');
    await waitForPage(page, "/blog", BLOG_HEADING);
    await page.click(`main a[href="${ARTICLE.path}"]`);
    await waitForPage(page, ARTICLE.path, ARTICLE.heading);
    expect(await page.evaluate(isSameDocument), "no full page load").toBe(true);
    expect(await page.consoleProblems()).toEqual([]);
  });
});
