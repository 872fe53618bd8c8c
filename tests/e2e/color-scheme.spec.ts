// The dark colour scheme: every page, panel and notice follows the reader's system setting, light or dark,
// in CSS alone (so nothing flashes and no script is needed), and says so to the browser (`color-scheme`,
// a dark `theme-color`). Screenshots of both schemes at both widths go to tests/.artifacts/screenshots/
// color-scheme/ for a look by eye. The pages themselves are checked without JavaScript, at both widths (the
// scheme cannot depend on a script there); what only a script shows (the modal dialog, a toast, the header
// after scrolling, the phone menu as a button, the client-side error page) with JavaScript.
import type { Page } from "@playwright/test";
import { embedded, hydrated, pick, toasts, videoId } from "./blog-helpers";
import { expect, test, urls } from "./fixtures";

type Scheme = "light" | "dark";

const SHOTS_DIR = "tests/.artifacts/screenshots/color-scheme";

const article = pick(embedded, "with a picture, a video and keywords", (item) =>
  Boolean(item.pinterestImageLink && videoId(item.youtubeShortsUrl) && item.shortTailKeywords),
);

const pages = [
  { name: "home", url: `${urls.demo}/` },
  { name: "blog", url: `${urls.demo}/blog` },
  { name: "article", url: `${urls.demo}/blog/${article.slug}` },
  { name: "not-found", url: `${urls.demo}/nope` },
  { name: "blog-unavailable", url: `${urls.broken}/blog` },
  { name: "article-unavailable", url: `${urls.configured}/blog/fault-500` },
];

const width = () => test.info().project.use.viewport?.width ?? 0;

async function screenshot(page: Page, name: string, scheme: Scheme, fullPage = true) {
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-${scheme}-${width()}.png`, fullPage, animations: "disabled" });
}

type Looks = {
  /** Relative luminance (WCAG, 0 black to 1 white) of the page's background. */
  canvas: number;
  /** ... and of the main heading's text. */
  heading: number;
  /** Visible boxes larger than a button whose own background is light (luminance over 0.3), described. */
  lightBoxes: string[];
};

/**
 * How light the page is. Colours are read back through a canvas, so any CSS colour syntax (hex, oklch,
 * color-mix) is measured the same way. A box counts where a reader would see it: at least 100 × 100 px, in
 * the viewport's width, not an image.
 */
function looks(page: Page): Promise<Looks> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    /** Luminance of a colour as painted over white, or undefined when it is (nearly) transparent. */
    const luminance = (css: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#fff";
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data as unknown as number[];
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const alpha = (css: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      return context.getImageData(0, 0, 1, 1).data[3]!;
    };
    const lightBoxes: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      if (element instanceof HTMLImageElement || element instanceof HTMLIFrameElement) continue;
      const box = element.getBoundingClientRect();
      if (
        box.width < 100 ||
        box.height < 100 ||
        element.checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) === false
      )
        continue;
      const background = getComputedStyle(element).backgroundColor;
      if (alpha(background) < 128) continue;
      if (luminance(background) > 0.3)
        lightBoxes.push(`${element.tagName.toLowerCase()}.${element.className} ${background}`);
    }
    const heading = document.querySelector("h1");
    return {
      canvas: luminance(getComputedStyle(document.documentElement).backgroundColor),
      heading: heading ? luminance(getComputedStyle(heading).color) : NaN,
      lightBoxes,
    };
  });
}

/** Light text on a dark page with no light box on it, or the other way round. */
async function expectScheme(page: Page, scheme: Scheme, where: string) {
  const seen = await looks(page);
  if (scheme === "dark") {
    expect(seen.canvas, `${where}: a dark page`).toBeLessThan(0.03);
    expect(seen.heading, `${where}: a light heading`).toBeGreaterThan(0.6);
    expect(seen.lightBoxes, `${where}: no light boxes on the dark page`).toEqual([]);
  } else {
    expect(seen.canvas, `${where}: a light page`).toBeGreaterThan(0.85);
    expect(seen.heading, `${where}: a dark heading`).toBeLessThan(0.05);
  }
}

test(
  "every page follows the reader's colour scheme without any script, and tells the browser",
  { tag: "@nojs" },
  async ({ page }) => {
    test.setTimeout(60_000);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const { name, url } of pages) {
        await page.goto(url);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectScheme(page, scheme, `${name} (${scheme})`);
        await screenshot(page, name, scheme);
      }
      // The no-JavaScript forms of the donation panel and the phone menu: :target panels.
      await page.goto(`${urls.demo}/#donate`);
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectScheme(page, scheme, `donation panel (${scheme})`);
      await screenshot(page, "donation-panel", scheme, false);
      if (width() < 768) {
        await page.goto(`${urls.demo}/blog#mobile-menu`);
        await expect(page.locator("#mobile-menu")).toBeVisible();
        await expectScheme(page, scheme, `phone menu (${scheme})`);
        await screenshot(page, "phone-menu", scheme, false);
      }
    }

    // Form controls and scrollbars follow too, and the browser's own colour around the page matches it.
    await expect(page.locator("html")).toHaveCSS("color-scheme", "light dark");
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute("content", "light dark");
    const themeColors = await page
      .locator('meta[name="theme-color"]')
      .evaluateAll((tags) =>
        tags.map((tag) => `${tag.getAttribute("media") ?? "any"}: ${tag.getAttribute("content")}`),
      );
    expect(themeColors).toEqual(["(prefers-color-scheme: dark): #151311", "any: #faf7f2"]);
  },
);

test("what only a script shows follows the dark scheme too", { tag: "@js" }, async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });

  // The header after scrolling, translucent over the page.
  await page.goto(`${urls.demo}/`);
  await hydrated(page);
  await page.mouse.wheel(0, 1200);
  await expect(page.locator(".site-header")).toHaveAttribute("data-scrolled", "true");
  await expectScheme(page, "dark", "scrolled header");

  // The phone menu, opened by its button.
  if (width() < 768) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.locator("#mobile-menu")).toBeVisible();
    await expectScheme(page, "dark", "phone menu");
    await screenshot(page, "phone-menu-js", "dark", false);
    await page.getByRole("button", { name: "Close menu" }).click();
  }

  // The modal donation dialog.
  await page.goto(`${urls.demo}/#donate`);
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectScheme(page, "dark", "donation dialog");
  await screenshot(page, "donation-dialog", "dark", false);

  // A toast, over the article's error message.
  await page.goto(`${urls.configured}/blog/fault-500`);
  await expect(toasts(page)).toBeVisible();
  await expectScheme(page, "dark", "error toast");
  await screenshot(page, "toast", "dark", false);

  // The error page, as a failed client-side navigation shows it.
  await page.goto(`${urls.demo}/`);
  await hydrated(page);
  await page.route("**/blog.data*", (route) => route.fulfill({ status: 500, body: "boom" }));
  // No link leads to a failing page: go through the app's router, as a link would.
  await page.evaluate(() => {
    void (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(
      "/blog",
    );
  });
  await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
  await expectScheme(page, "dark", "error page");
  await screenshot(page, "error-page", "dark");
});
