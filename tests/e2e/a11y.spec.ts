// axe-core finds no accessibility violations on the home and not-found pages, for the demo and the configured
// site, with and without JavaScript, nor with the donation pop-up or the phone menu open. The configured
// home page, the richest, is checked in all four projects; the other pages with JavaScript at 1280 px and
// without at 375 px (@crosswise), which covers both widths and both kinds of visitor.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import { expect, hasJavaScript, test, urls } from "./fixtures";

// axe walks every frame of the page (the blocked embeds included): give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });

const isPhone = () => test.info().project.name.endsWith("-375");

const extraContexts: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of extraContexts.splice(0)) await context.close();
});

type Visit = { page: Page; browser: Browser; contextOptions: BrowserContextOptions };

/**
 * The page as this project's visitor sees it. axe-core cannot run in a page whose JavaScript is switched off
 * (its own timers never fire), so for the no-JavaScript visitor the page is opened in a separate context
 * where a Content-Security-Policy of `script-src 'none'` keeps every one of the site's scripts from running:
 * the DOM and CSS are exactly what a browser without JavaScript shows, and axe can still be injected.
 */
async function visit({ page, browser, contextOptions }: Visit, url: string): Promise<Page> {
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
    return route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": "script-src 'none'" } });
  });
  const scriptless = await context.newPage();
  await scriptless.goto(url);
  expect(await scriptless.evaluate(() => document.documentElement.hasAttribute("data-hydrated")), "no script of the site ran").toBe(false);
  return scriptless;
}

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(violations).toEqual([]);
}

const contextOptions = (viewport: BrowserContextOptions["viewport"], isMobile: boolean, hasTouch: boolean) => ({
  viewport,
  isMobile,
  hasTouch,
});

for (const [siteName, base] of [
  ["demo", urls.demo],
  ["configured", urls.configured],
] as const) {
  for (const path of ["/", "/nope"]) {
    const tag = siteName === "configured" && path === "/" ? [] : ["@crosswise"];
    test(`no accessibility violations on ${path} of the ${siteName} site`, { tag }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
      const seen = await visit({ page, browser, contextOptions: contextOptions(viewport, isMobile, hasTouch) }, `${base}${path}`);
      await expect(seen.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoViolations(seen);
    });
  }
}

test("no accessibility violations with the donation dialog open", { tag: "@js" }, async ({ page }) => {
  await page.goto(`${urls.configured}/`);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
  if (isPhone()) await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
  await expectNoViolations(page);
});

test("no accessibility violations with the donation panel shown", { tag: "@nojs" }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
  const seen = await visit({ page, browser, contextOptions: contextOptions(viewport, isMobile, hasTouch) }, `${urls.configured}/#donate`);
  await expect(seen.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
  await expectNoViolations(seen);
});

test("no accessibility violations with the phone menu open", { tag: "@mobile" }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
  const seen = await visit({ page, browser, contextOptions: contextOptions(viewport, isMobile, hasTouch) }, `${urls.configured}/`);
  await seen.getByLabel("Open menu", { exact: true }).click();
  await expect(seen.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectNoViolations(seen);
});
