// axe-core finds no accessibility violations on the home and not-found pages of the demo and the configured
// site, on the blog list, an article and their error states, with and without JavaScript, nor with the donation
// pop-up or the phone menu open, in the light and the dark colour scheme. Each page is checked once per kind of
// visitor, with JavaScript at 1280 px and without at 375 px, in one scheme for the one and the other scheme for
// the other, alternating from page to page: every page meets both schemes and both kinds of visitor, and each
// width meets both schemes (docs/decisions/051). The configured home page, the richest, keeps every check:
// light in all four projects, dark in the two above.
import type { BrowserContextOptions } from "@playwright/test";
import { closeVisits, expectNoViolations, visit } from "./axe";
import { embedded, pick, toasts, videoId } from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

// axe walks every frame of the page (the blocked embeds included): give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });

const isPhone = () => test.info().project.name.endsWith("-375");

test.afterEach(closeVisits);

type ContextOptionsUsed = Pick<BrowserContextOptions, "viewport" | "isMobile" | "hasTouch" | "colorScheme">;
const contextOptions = ({ viewport, isMobile, hasTouch, colorScheme }: ContextOptionsUsed) => ({
  viewport,
  isMobile,
  hasTouch,
  colorScheme,
});

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

type Scheme = "light" | "dark";
/** The tags that run a test in one project only (see playwright.config.ts). */
const only = {
  "js-1280": ["@js", "@desktop"],
  "js-375": ["@js", "@mobile"],
  "nojs-1280": ["@nojs", "@desktop"],
  "nojs-375": ["@nojs", "@mobile"],
};
/** The checks of a page: the projects it runs in, each with its scheme. */
type Checks = { scheme: Scheme; tag: string[] }[];

const richest = `${urls.configured}/`;
for (const [index, { name, url, toast }] of pages.entries()) {
  const [first, second] = (index % 2 === 0 ? ["light", "dark"] : ["dark", "light"]) as [Scheme, Scheme];
  const checks: Checks =
    url === richest
      ? [
          { scheme: "light", tag: [] },
          { scheme: "dark", tag: ["@crosswise"] },
        ]
      : [
          { scheme: first, tag: only["js-1280"] },
          { scheme: second, tag: only["nojs-375"] },
        ];
  for (const { scheme: colorScheme, tag } of checks) {
    test.describe(`${colorScheme} scheme`, () => {
      test.use({ colorScheme });
      test(
        `no accessibility violations on ${name}`,
        { tag },
        async ({ page, browser, viewport, isMobile, hasTouch }) => {
          const seen = await visit(
            { page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) },
            url,
          );
          await expect(seen.getByRole("heading", { level: 1 })).toBeVisible();
          if (toast && hasJavaScript(page)) await expect(toasts(seen)).toBeVisible();
          await expectNoViolations(seen);
        },
      );
    });
  }
}

// The donation pop-up with JavaScript (light at 1280 px, dark at 375), its panel without (light at 375 px, dark
// at 1280) and the phone menu (light without JavaScript, dark with).
const dialogChecks: Checks = [
  { scheme: "light", tag: only["js-1280"] },
  { scheme: "dark", tag: only["js-375"] },
];
const panelChecks: Checks = [
  { scheme: "light", tag: only["nojs-375"] },
  { scheme: "dark", tag: only["nojs-1280"] },
];
const menuChecks: Checks = [
  { scheme: "light", tag: only["nojs-375"] },
  { scheme: "dark", tag: only["js-375"] },
];

for (const { scheme: colorScheme, tag } of dialogChecks) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    test("no accessibility violations with the donation dialog open", { tag }, async ({ page }) => {
      await page.goto(`${urls.configured}/`);
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
      if (isPhone()) await page.getByRole("button", { name: "Open menu" }).click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
      await expectNoViolations(page);
    });
  });
}

for (const { scheme: colorScheme, tag } of panelChecks) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    test(
      "no accessibility violations with the donation panel shown",
      { tag },
      async ({ page, browser, viewport, isMobile, hasTouch }) => {
        const seen = await visit(
          { page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) },
          `${urls.configured}/#donate`,
        );
        await expect(seen.getByRole("dialog", { name: "Support Chan Practice Center" })).toBeVisible();
        await expectNoViolations(seen);
      },
    );
  });
}

for (const { scheme: colorScheme, tag } of menuChecks) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });
    test(
      "no accessibility violations with the phone menu open",
      { tag },
      async ({ page, browser, viewport, isMobile, hasTouch }) => {
        const seen = await visit(
          { page, browser, contextOptions: contextOptions({ viewport, isMobile, hasTouch, colorScheme }) },
          `${urls.configured}/`,
        );
        await seen.getByLabel("Open menu", { exact: true }).click();
        await expect(seen.getByRole("navigation", { name: "Main" })).toBeVisible();
        await expectNoViolations(seen);
      },
    );
  });
}
