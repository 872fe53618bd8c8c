// axe-core finds no accessibility violations, in the light and the dark colour scheme, on the home and
// not-found pages of the demo and the configured site, on the blog list, an article and their error states,
// with and without JavaScript, nor with the donation pop-up or the phone menu open. The configured home page
// in the light scheme, the richest, is checked in all four projects; the other pages with JavaScript at
// 1280 px and without at 375 px (@crosswise), which covers both widths and both kinds of visitor.
import type { BrowserContextOptions } from "@playwright/test";
import { closeVisits, expectNoViolations, visit } from "./axe";
import { embedded, pick, toasts, videoId } from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

// axe walks every frame of the page (the blocked embeds included): give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });

const isPhone = () => test.info().project.name.endsWith("-375");

test.afterEach(closeVisits);

type ContextOptionsUsed = Pick<BrowserContextOptions, "viewport" | "isMobile" | "hasTouch" | "colorScheme">;
const contextOptions = ({ viewport, isMobile, hasTouch, colorScheme }: ContextOptionsUsed) => ({ viewport, isMobile, hasTouch, colorScheme });

const article = pick(embedded, "with a picture, a video and keywords", (item) =>
  Boolean(item.pinterestImageLink && videoId(item.youtubeShortsUrl) && item.shortTailKeywords),
);

const pages = [
  { name: "/ of the demo site", url: `${urls.demo}/` },
  { name: "/nope of the demo site", url: `${urls.demo}/nope` },
  { name: "/ of the configured site", url: `${urls.configured}/` },
  { name: "/nope of the configured site", url: `${urls.configured}/nope` },
  { name: "the blog list", url: `${urls.demo}/blog` },
  { name: "an article", url: `${urls.demo}/blog/${article.slug}` },
  { name: "the blog list when the backend is down", url: `${urls.broken}/blog` },
  { name: "an article the backend fails on (with its toast)", url: `${urls.configured}/blog/fault-500`, toast: true },
];

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    for (const { name, url, toast } of pages) {
      const tag = colorScheme === "light" && url === `${urls.configured}/` ? [] : ["@crosswise"];
      test(`no accessibility violations on ${name}`, { tag }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
        const seen = await visit({ page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) }, url);
        await expect(seen.getByRole("heading", { level: 1 })).toBeVisible();
        if (toast && hasJavaScript(page)) await expect(toasts(seen)).toBeVisible();
        await expectNoViolations(seen);
      });
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
      const seen = await visit({ page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) }, `${urls.configured}/#donate`);
      await expect(seen.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
      await expectNoViolations(seen);
    });

    test("no accessibility violations with the phone menu open", { tag: "@mobile" }, async ({ page, browser, viewport, isMobile, hasTouch }) => {
      const seen = await visit({ page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) }, `${urls.configured}/`);
      await seen.getByLabel("Open menu", { exact: true }).click();
      await expect(seen.getByRole("navigation", { name: "Main" })).toBeVisible();
      await expectNoViolations(seen);
    });
  });
}
