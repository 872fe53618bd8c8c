// axe-core finds no accessibility violations on the home and not-found pages, for the demo and the configured
// site, with and without JavaScript, nor with the donation pop-up or the phone menu open. The configured
// home page, the richest, is checked in all four projects; the other pages with JavaScript at 1280 px and
// without at 375 px (@crosswise), which covers both widths and both kinds of visitor.
import { closeVisits, expectNoViolations, visit } from "./axe";
import { expect, test, urls } from "./fixtures";

// axe walks every frame of the page (the blocked embeds included): give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });

const isPhone = () => test.info().project.name.endsWith("-375");

test.afterEach(closeVisits);

for (const [siteName, base] of [
  ["demo", urls.demo],
  ["configured", urls.configured],
] as const) {
  for (const path of ["/", "/nope"]) {
    const tag = siteName === "configured" && path === "/" ? [] : ["@crosswise"];
    test(`no accessibility violations on ${path} of the ${siteName} site`, { tag }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
      const seen = await visit({ page, browser, viewport, isMobile, hasTouch }, `${base}${path}`);
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
  const seen = await visit({ page, browser, viewport, isMobile, hasTouch }, `${urls.configured}/#donate`);
  await expect(seen.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
  await expectNoViolations(seen);
});

test("no accessibility violations with the phone menu open", { tag: "@mobile" }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
  const seen = await visit({ page, browser, viewport, isMobile, hasTouch }, `${urls.configured}/`);
  await seen.getByLabel("Open menu", { exact: true }).click();
  await expect(seen.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expectNoViolations(seen);
});
