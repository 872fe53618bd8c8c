// What makes the pages fast on a slow phone, as a visitor's browser sees it: content before code (the
// scripts are requested after the first paint and the images in view, docs/decisions/009) and images
// sent at the size they are shown (docs/decisions/010).
import { embedded, pick, shownImage } from "./blog-helpers";
import { expect, test } from "./fixtures";

type Timings = { firstContentfulPaint: number; firstScriptStart: number; eagerImagesEnd: number; scripts: number };

const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);
const pages = ["/", "/blog", `/blog/${article.slug}`];

for (const path of pages) {
  test(`${path} requests its scripts after the first paint and its images in view @js`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const timings = await page.evaluate<Timings>(() => {
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const scripts = resources.filter((entry) => /\/build\/.*\.js$/.test(entry.name));
      // Lazy images wait for layout and may come later; the others are part of the page's load.
      const eager = new Set([...document.images].filter((image) => image.loading !== "lazy").map((image) => image.currentSrc));
      const images = resources.filter((entry) => eager.has(entry.name));
      return {
        firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
        firstScriptStart: Math.min(...scripts.map((entry) => entry.startTime)),
        eagerImagesEnd: Math.max(0, ...images.map((entry) => entry.responseEnd)),
        scripts: scripts.length,
      };
    });
    expect(timings.scripts, "the page's scripts were loaded").toBeGreaterThan(0);
    expect(timings.firstScriptStart, "scripts start after the first contentful paint").toBeGreaterThan(timings.firstContentfulPaint);
    expect(timings.firstScriptStart, "scripts start after the images in view").toBeGreaterThan(timings.eagerImagesEnd);
  });
}

test("the server's HTML preloads no script, so nothing competes with the stylesheet and images @js @desktop", async ({ request }) => {
  for (const path of pages) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toMatch(/<link rel="modulepreload"/);
    expect(html, path).not.toMatch(/<script[^>]* type="module"/);
    expect(html.match(/<link rel="modulepreload-after-paint" href="\/build\/[^"]+\.js"\/>/g)?.length ?? 0, path).toBeGreaterThan(3);
  }
});

test("card images are 160 px WebP copies, not the full pictures", async ({ page }) => {
  const responses = new Map<string, { type: string; bytes: number }>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "image") {
      responses.set(response.url(), { type: response.headers()["content-type"] ?? "", bytes: (await response.body()).length });
    }
  });
  await page.goto("/blog");
  const images = page.getByRole("main").locator("li img");
  await expect(images.first()).toBeVisible();
  // The first row loads at once; the others as they come into view.
  await expect(images.nth(0)).toHaveAttribute("loading", "eager");
  await expect(images.nth(3)).toHaveAttribute("loading", "lazy");
  await expect.poll(() => images.first().evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(160);
  const src = await images.first().evaluate((image: HTMLImageElement) => image.currentSrc);
  await expect.poll(() => responses.get(src)?.type).toBe("image/webp");
  expect(responses.get(src)!.bytes, "a thumbnail is a few kilobytes").toBeLessThan(8_000);
});

test("the article hero loads the copy that fits the screen @js", async ({ page }) => {
  await page.goto(`/blog/${article.slug}`);
  const hero = page.getByRole("main").getByRole("img", { name: article.metaTitle, exact: true });
  await expect.poll(() => hero.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  const currentSrc = await hero.evaluate((image: HTMLImageElement) => image.currentSrc);
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  // 375 px at 1x needs the 800 px copy; the desktop column (56rem) needs the 1200 px one.
  const { hero: largest } = shownImage(article.pinterestImageLink!);
  expect(new URL(currentSrc).pathname).toBe(phone ? largest.replace(/-1200\.webp$/, "-800.webp") : largest);
  await expect(page.getByRole("main").getByRole("link", { name: "View on Pinterest" })).toHaveAttribute("href", article.pinterestImageLink!);
});

test("a link clicked while the page is coming alive works as a plain link @js @desktop", async ({ page }) => {
  // A slowed CPU stretches React's hydration, so the click surely lands in the middle of it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
  await page.goto("/no-such-page");
  const reactListens = () => Object.keys(document).some((key) => key.startsWith("_reactListening"));
  await page.waitForFunction(reactListens, undefined, { polling: 10 });
  const navigations: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest()) navigations.push(new URL(request.url()).pathname);
  });
  expect(await page.locator("html[data-hydrated]").count(), "still hydrating when the link is clicked").toBe(0);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover the Ancient Wisdom of Zen Buddhism");
  expect(navigations, "the browser followed the link itself").toEqual(["/"]);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
});
