// What makes the pages fast on a slow phone, as a visitor's browser sees it: content before code (the
// scripts are requested after the first paint and the images in view, docs/decisions/013) and images
// sent at the size they are shown (docs/decisions/015).
import { embedded, imageAddress, pick } from "./blog-helpers";
import { expect, test } from "./fixtures";

const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);
const pages = ["/", "/blog", `/blog/${article.slug}`];

type Timings = { firstContentfulPaint: number; firstScriptStart: number; eagerImagesEnd: number; scripts: number };

for (const path of pages) {
  test(`${path} requests its scripts after the first paint and its images in view @js`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const timings = await page.evaluate<Timings>(() => {
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const scripts = resources.filter((entry) => /\/build\/.*\.js$/.test(entry.name));
      // Lazy images wait for layout and may come later; the others are part of the page's load.
      const eager = new Set(
        [...document.images].filter((image) => image.loading !== "lazy").map((image) => image.currentSrc),
      );
      const images = resources.filter((entry) => eager.has(entry.name));
      return {
        firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
        firstScriptStart: Math.min(...scripts.map((entry) => entry.startTime)),
        eagerImagesEnd: Math.max(0, ...images.map((entry) => entry.responseEnd)),
        scripts: scripts.length,
      };
    });
    expect(timings.scripts, "the page's scripts were loaded").toBeGreaterThan(0);
    expect(timings.firstScriptStart, "scripts start after the first contentful paint").toBeGreaterThan(
      timings.firstContentfulPaint,
    );
    expect(timings.firstScriptStart, "scripts start after the images in view").toBeGreaterThan(timings.eagerImagesEnd);
  });
}

test("the server's HTML preloads no script, so nothing competes with the stylesheet and images @js @desktop", async ({
  request,
}) => {
  for (const path of pages) {
    const html = await (await request.get(path)).text();
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length, path).toBeGreaterThan(3);
    for (const preload of preloads) expect(preload, path).toContain('media="not all"');
    expect(html, path).not.toMatch(/<script[^>]* type="module"/);
  }
});

test("card images are 80 px AVIF copies on a 1x screen, not the full pictures @desktop", async ({ page }) => {
  const responses = new Map<string, { type: string; bytes: number }>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "image") {
      responses.set(response.url(), {
        type: response.headers()["content-type"] ?? "",
        bytes: (await response.body()).length,
      });
    }
  });
  await page.goto("/blog");
  const images = page.getByRole("main").locator("li img");
  await expect(images.first()).toBeVisible();
  // The first row loads at once; the others as they come into view.
  await expect(images.nth(0)).toHaveAttribute("loading", "eager");
  await expect(images.nth(3)).toHaveAttribute("loading", "lazy");
  await expect.poll(() => images.first().evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(80);
  const src = await images.first().evaluate((image: HTMLImageElement) => image.currentSrc);
  await expect.poll(() => responses.get(src)?.type).toBe("image/avif");
  expect(responses.get(src)!.bytes, "a thumbnail is a few kilobytes").toBeLessThan(8_000);
});

test("the article hero loads the copy that fits the screen @js", async ({ page }) => {
  await page.goto(`/blog/${article.slug}`);
  const hero = page.getByRole("main").getByRole("img", { name: article.metaTitle, exact: true });
  await expect
    .poll(() => hero.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBeGreaterThan(0);
  const currentSrc = await hero.evaluate((image: HTMLImageElement) => image.currentSrc);
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  // 375 px at 1x needs the 480 px copy; the desktop column (56rem) needs the 1200 px one.
  expect(imageAddress(currentSrc)).toBe(`${article.pinterestImageLink} ${phone ? "480x320" : "1200x800"}.avif`);
  await expect(page.getByRole("main").getByRole("link", { name: "View on Pinterest" })).toHaveAttribute(
    "href",
    article.pinterestImageLink!,
  );
});

// React 18 finishes an interrupted hydration inside any press it sees, which can fail ("error #345").
// Until the page is live, the loader keeps presses on links from React: they are plain links. React
// listens on the document, so a listener there stands in for it, on a page whose code is held back.
test("until the page is live, presses on links are the browser's alone @js @desktop", async ({ page }) => {
  await page.route(/\/build\/entry\.client-[\w-]+\.js$/, () => {
    // Never answered: the page stays as the server sent it, with the loader running.
  });
  await page.goto("/no-such-page");
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { seen });
    for (const type of ["pointerdown", "mousedown", "mouseup", "click", "keydown"]) {
      document.addEventListener(type, (event) => seen.push(event.type), true);
    }
    // Stay on this page: the clicks below only probe who hears them.
    window.addEventListener("click", (event) => event.preventDefault(), true);
  });
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen.splice(0));
  const home = page.getByRole("link", { name: "Return to Home" });

  await home.click();
  await home.press("Enter");
  expect(await seen(), "before hydration the document hears nothing").toEqual([]);

  await page.evaluate(() => document.documentElement.setAttribute("data-hydrated", ""));
  await home.click();
  expect(await seen(), "once live, presses reach the document (and React)").toEqual([
    "pointerdown",
    "mousedown",
    "mouseup",
    "click",
  ]);
});
