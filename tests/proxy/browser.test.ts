// Pages read through nginx in Chromium, as nginx first fetches them and as it answers them from its
// cache: the Content-Security-Policy lets every script the page needs run (no violation) and React
// hydrates (the root marks <html data-hydrated>).
import { chromium, type Browser, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import playwrightConfig from "../../playwright.config";
import { nginxMissing } from "../support/nginx.mjs";
import { useStack } from "./support/stack";

const loopback = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

describe.skipIf(nginxMissing)("pages through nginx in Chromium", () => {
  const running = useStack();
  let browser: Browser;
  beforeAll(async () => {
    // The same browser and flags as the Playwright suite.
    browser = await chromium.launch(playwrightConfig.use?.launchOptions);
  }, 60_000);
  afterAll(() => browser?.close());

  /** Opens a page in a fresh context (no browser cache) and reports what the policy and the page did. */
  async function read(pathname: string) {
    const context = await browser.newContext();
    try {
      // Third-party hosts (the configured ad and lead-form scripts) are blocked, as in the e2e tests.
      await context.route(
        (url) => !loopback.test(url.href) && !url.href.startsWith("data:") && !url.href.startsWith("blob:"),
        (route) => route.abort("blockedbyclient"),
      );
      const page: Page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(
            `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`,
          );
        });
      });
      const response = await page.goto(running().nginx.url + pathname);
      const hydrated = await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 }).then(
        () => true,
        () => false,
      );
      return {
        status: response?.status(),
        cache: (await response?.allHeaders())?.["x-cache-status"],
        hydrated,
        problems,
      };
    } finally {
      await context.close();
    }
  }

  for (const pathname of ["/", "/blog", "/blog/backend-article-2"]) {
    test(`${pathname}: first read and cached read hydrate with no CSP violation`, async () => {
      const first = await read(pathname);
      const cached = await read(pathname);
      expect([first.status, cached.status]).toEqual([200, 200]);
      expect([first.cache, cached.cache], "fetched by nginx, then answered from its cache").toEqual(["MISS", "HIT"]);
      expect([...first.problems, ...cached.problems]).toEqual([]);
      expect([first.hydrated, cached.hydrated], "hydrated").toEqual([true, true]);
    });
  }
});
