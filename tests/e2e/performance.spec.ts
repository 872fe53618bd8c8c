// What makes the pages light on a slow phone, as a visitor's browser sees it: images sent at the size
// they are shown (docs/decisions/010).
import { embedded, pick, shownImage } from "./blog-helpers";
import { expect, test } from "./fixtures";

const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);

test("card images are 160 px WebP copies, not the full pictures @desktop", async ({ page }) => {
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
