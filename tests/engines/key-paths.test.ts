// What can differ between engines, with JavaScript, in Firefox and WebKit (Chromium's tests are in tests/e2e):
// hydration without a console error or warning, client-side navigation that keeps the document, pagination
// and Back, the phone menu, the error toast and the donation pop-up on a clock the test moves.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { engineNames, launch, type EnginePage } from "./support/engines";
import { startHookProxy } from "./support/hook-proxy.mjs";
import {
  isHydrated,
  isSameDocument,
  markDocument,
  overflowsSideways,
  toastTexts,
  waitForHydration,
  waitForPage,
  withoutNotFoundNotice,
} from "./support/page-checks";

const BLOG_HEADING = "Latest Articles & Insights";
const ARTICLE = { path: "/blog/a-day-at-sesshin", heading: "A Day at Sesshin: Inside a Zen Retreat" };
const DONATION_TITLE = "Support Chan Practice Center";

type Proxy = Awaited<ReturnType<typeof startHookProxy>>;

describe.each(engineNames)("%s", (engine) => {
  let demo: Proxy;
  let configured: Proxy;
  let page: EnginePage;

  beforeAll(async () => {
    demo = await startHookProxy(inject("demoUrl"));
    configured = await startHookProxy(inject("configuredUrl"));
    page = await launch(engine, { width: 1280, height: 800 }, inject("webkitDriverUrl"));
  });
  afterAll(async () => {
    await page?.close();
    await demo?.stop();
    await configured?.stop();
  });
  beforeEach(async () => {
    await page.resize(1280, 800);
  });

  test("every kind of page hydrates with no console error or warning and no sideways scroll, at 1280 and 375 px", async () => {
    const pages = [
      { path: "/", heading: /Discover the Ancient Wisdom/ },
      { path: "/blog", heading: BLOG_HEADING },
      { path: "/blog?page=2", heading: BLOG_HEADING },
      ARTICLE,
      { path: "/no-such-page", heading: "Oops! Page not found" },
    ];
    await page.goto(`${demo.url}/robots.txt`);
    await page.clearConsole();
    for (const width of [1280, 375]) {
      await page.resize(width, 800);
      for (const { path, heading } of pages) {
        await page.goto(`${demo.url}${path}`);
        await waitForPage(page, path, heading);
        await waitForHydration(page);
        expect(withoutNotFoundNotice(await page.consoleProblems()), `${path} at ${width} px`).toEqual([]);
        expect(await page.evaluate(overflowsSideways), `${path} at ${width} px scrolls sideways`).toBe(false);
      }
    }
  });

  test("a link changes the page without a full page load; pagination and Back too", async () => {
    await page.goto(`${demo.url}/`);
    await page.clearConsole();
    await waitForHydration(page);
    await page.evaluate(markDocument);

    await page.click('header nav a[href="/blog"]');
    await waitForPage(page, "/blog", BLOG_HEADING);
    await page.click('nav[aria-label="Pagination"] a[aria-label="Page 2"]');
    await waitForPage(page, "/blog?page=2", BLOG_HEADING);
    await page.waitFor(
      "document.querySelector('nav[aria-label=Pagination] [aria-current=page]')?.textContent === '2'",
      "page 2 marked current",
    );
    await page.back();
    await waitForPage(page, "/blog", BLOG_HEADING);
    await page.waitFor(
      "document.querySelector('nav[aria-label=Pagination] [aria-current=page]')?.textContent === '1'",
      "page 1 marked current again",
    );
    await page.click(`main a[href="${ARTICLE.path}"]`);
    await waitForPage(page, ARTICLE.path, ARTICLE.heading);

    expect(await page.evaluate(isSameDocument), "the same document all along").toBe(true);
    expect(await page.consoleProblems()).toEqual([]);
  });

  test("the phone menu opens from its button, leads to a page and closes", async () => {
    await page.resize(375, 740);
    await page.goto(`${demo.url}/`);
    await page.clearConsole();
    await waitForHydration(page);
    expect(await page.isDisplayed("#mobile-menu"), "closed at first").toBe(false);
    expect(await page.isDisplayed('header nav[aria-label="Main"]'), "the wide header's links are hidden").toBe(false);

    await page.click('button[aria-controls="mobile-menu"]');
    await page.waitFor(
      "document.querySelector('button[aria-controls=mobile-menu]').getAttribute('aria-expanded') === 'true'",
      "the toggle says open",
    );
    expect(await page.isDisplayed("#mobile-menu"), "open").toBe(true);
    await page.evaluate(markDocument);
    await page.click('#mobile-menu a[href="/blog"]');
    await waitForPage(page, "/blog", BLOG_HEADING);
    expect(await page.isDisplayed("#mobile-menu"), "closed after choosing").toBe(false);
    expect(await page.evaluate(isSameDocument)).toBe(true);
    expect(await page.evaluate(overflowsSideways)).toBe(false);
    expect(await page.consoleProblems()).toEqual([]);
  });

  test("an article the backend fails on shows the error toast", async () => {
    await page.goto(`${configured.url}/blog/fault-500`);
    await waitForHydration(page);
    await page.waitFor(`${toastTexts}.some((text) => text.includes("Failed to load blog post"))`, "the error toast");
    const toast = await page.evaluate<string[]>(toastTexts);
    expect(toast.join(" ")).toContain("Error");
  });

  test("the donation pop-up opens 30 s after the home page loads, as a modal dialog, and Escape closes it", async () => {
    configured.fakeClock(true);
    try {
      await page.goto(`${configured.url}/`);
      await page.evaluate("(sessionStorage.clear(), true)");
      // The mark tells the reloaded document from the old one, which an engine may still answer for just
      // after reload() returns; and time moves only once the new page has set its 30 s timer.
      await page.evaluate(markDocument);
      await page.reload();
      await page.waitFor(`!(${isSameDocument}) && ${isHydrated}`, "the reloaded page to hydrate");
      await page.waitFor("window.__clock.waiting(30000)", "the page to set its 30 s timer");
      const open = "document.getElementById('donate').open";
      await page.evaluate("window.__clock.advance(29000)");
      expect(await page.evaluate(open), "not open after 29 s").toBe(false);
      await page.evaluate("window.__clock.advance(1000)");
      await page.waitFor(open, "the dialog to open after 30 s");
      expect(await page.evaluate("document.getElementById('donate').matches(':modal')")).toBe(true);
      expect(await page.evaluate("document.getElementById('donate-title').textContent")).toBe(DONATION_TITLE);
      expect(await page.isDisplayed("#donate"), "shown").toBe(true);
      await page.waitFor(
        "document.getElementById('donate').contains(document.activeElement)",
        "focus inside the dialog",
      );
      await page.pressEscape();
      await page.waitFor(`!${open}`, "the dialog to close on Escape");
      expect(await page.isDisplayed("#donate")).toBe(false);
    } finally {
      configured.fakeClock(false);
    }
  });
});
