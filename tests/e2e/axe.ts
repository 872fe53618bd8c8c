import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import { expect, hasJavaScript } from "./fixtures";

const extraContexts: BrowserContext[] = [];

/** Closes the contexts `visit` opened; a spec that uses it calls this after each test. */
export async function closeVisits() {
  for (const context of extraContexts.splice(0)) await context.close();
}

export type Visit = { page: Page; browser: Browser; contextOptions: BrowserContextOptions };

/**
 * The page as this project's visitor sees it. axe-core cannot run in a page whose JavaScript is switched off
 * (its own timers never fire), so for the no-JavaScript visitor the page is opened in a separate context
 * where a Content-Security-Policy of `script-src 'none'` keeps every one of the site's scripts from running:
 * the DOM and CSS are exactly what a browser without JavaScript shows, and axe can still be injected.
 */
export async function visit({ page, browser, contextOptions }: Visit, url: string): Promise<Page> {
  if (hasJavaScript(page)) {
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    return page;
  }
  const context = await browser.newContext({ ...contextOptions, javaScriptEnabled: true });
  extraContexts.push(context);
  await context.route(
    (target) => !/^https?:\/\/127\.0\.0\.1(:\d+)?\//.test(target.href),
    (route) => route.abort("blockedbyclient"),
  );
  await context.route(/^http:\/\/127\.0\.0\.1(:\d+)?\//, async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch();
    return route.fulfill({
      response,
      headers: { ...response.headers(), "content-security-policy": "script-src 'none'" },
    });
  });
  const scriptless = await context.newPage();
  await scriptless.goto(url);
  expect(
    await scriptless.evaluate(() => document.documentElement.hasAttribute("data-hydrated")),
    "no script of the site ran",
  ).toBe(false);
  return scriptless;
}

export async function expectNoViolations(page: Page) {
  // Legacy mode runs axe in the page itself: the default opens a second page to merge the frames' results,
  // which doubled each check (2.1 s against 1.0 s, the same results), and every frame here is a blocked third party.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(violations).toEqual([]);
}
