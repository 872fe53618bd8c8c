// Images as a reader's browser gets them with the hosted backend: every one from the site's own
// origin, at the size it is shown, AVIF or WebP where the browser takes it; a dead image link hidden without
// moving anything, and left out of the pages rendered after it failed. Starts its own image host,
// backend and site (IMAGE_HOSTS lists the image host on 127.0.0.1).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startFakeImageHost } from "../support/fake-image-host.mjs";
import { startSite } from "../support/site-process.mjs";
import { BEACON_PATH } from "../../app/beacon/beacon-path";
import { backend as articles, expectedImage, imageAddress, pick, shownImage } from "./blog-helpers";
import { expect, hasJavaScript, test } from "./fixtures";

let host: Awaited<ReturnType<typeof startFakeImageHost>>;
let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;
let cacheDir: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  host = await startFakeImageHost();
  backend = await startFakeBackend({ imageBase: host.url });
  cacheDir = mkdtempSync(path.join(tmpdir(), "e2e-images-"));
  site = await startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    IMAGE_HOSTS: host.host,
    IMAGE_CACHE_DIR: cacheDir,
    PAGE_CACHE_SECONDS: "0",
  });
});

test.afterAll(async () => {
  await Promise.all([site?.stop(), backend?.close(), host?.close()]);
  rmSync(cacheDir, { recursive: true, force: true });
});

/**
 * Every image request the page makes, by host, with the bytes and type of each answer; not the view a page
 * without JavaScript counts with an image of the beacon (app/entry.server.tsx), which is no picture.
 */
function recordImages(page: Page) {
  const seen: { url: string; type: string; bytes: number }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "image" || new URL(response.url()).pathname === BEACON_PATH) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    seen.push({ url: response.url(), type: response.headers()["content-type"] ?? "", bytes: body.length });
  });
  return seen;
}

const link = (n: number) => (n % 7 === 0 ? `${host.url}/dead/article-${n}.jpg` : `${host.url}/pin/article-${n}.jpg`);
const withImage = pick(articles, "with a working image", (article) =>
  /\/article-1\.jpg$/.test(article.pinterestImageLink ?? ""),
);
// On page 2 of the list, so that no earlier test has shown its card (and found the link dead).
const deadOne = pick(
  articles,
  "whose image link is dead on the image host",
  (article) => article.slug === "backend-article-14",
);

test("blog cards show 80 px copies from the site's own origin, never the source @crosswise", async ({ page }) => {
  const images = recordImages(page);
  await page.goto(`${site.url}/blog`);
  const cards = page.getByRole("main").locator("li a");
  for (let index = 0; index < (await cards.count()); index += 1) await cards.nth(index).scrollIntoViewIfNeeded();
  const first = page.getByRole("main").locator("li img").first();
  expect(await shownImage(first)).toEqual(expectedImage(link(1), "card"));
  await expect.poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(80);
  await expect.poll(() => images.length).toBeGreaterThanOrEqual(6);
  for (const image of images) {
    expect(new URL(image.url).origin, "images come from the site").toBe(site.url);
    if (image.type.startsWith("image/")) {
      expect(image.type, "Chromium takes the AVIF").toBe("image/avif");
      expect(image.bytes, "an 80 px circle, not a 160 KB photo").toBeLessThan(6_000);
    }
  }
  expect(host.calls()["/pin/article-1.jpg"], "the site fetched the source once").toBe(1);
});

test.describe("on a 2x screen", () => {
  test.use({ deviceScaleFactor: 2 });

  test("cards take the 160 px copy @js @desktop", async ({ page }) => {
    await page.goto(`${site.url}/blog`);
    const first = page.getByRole("main").locator("li img").first();
    await expect
      .poll(() => first.evaluate((image: HTMLImageElement) => image.complete && image.currentSrc.includes("/img/")))
      .toBe(true);
    expect(imageAddress(await first.evaluate((image: HTMLImageElement) => image.currentSrc))).toBe(
      `${link(1)} 160x160.avif`,
    );
  });
});

test("an article shows a 64 px thumbnail and a hero as wide as the column; View on Pinterest keeps the original @crosswise", async ({
  page,
}) => {
  await page.goto(`${site.url}/blog/${withImage.slug}`);
  const main = page.getByRole("main");
  const thumbnail = main.locator("header img");
  const hero = main.getByRole("img", { name: withImage.metaTitle, exact: true });
  expect(await shownImage(thumbnail)).toEqual(expectedImage(link(1), "articleThumbnail"));
  expect(await shownImage(hero)).toEqual(expectedImage(link(1), "hero"));
  await expect
    .poll(() => hero.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBeGreaterThan(0);
  const phone = page.viewportSize()!.width < 768;
  expect(imageAddress(await hero.evaluate((image: HTMLImageElement) => image.currentSrc))).toBe(
    `${link(1)} ${phone ? "480x320" : "1200x800"}.avif`,
  );
  await expect(main.getByRole("link", { name: "View on Pinterest" })).toHaveAttribute("href", link(1));
});

// A browser picks the first <source> whose type it can show (it never asks the server to choose).
// Chromium shows AVIF and WebP, so the page's HTML is changed to name types it cannot show: it then
// sees the page as a browser without AVIF, or without WebP as well, would.
for (const [lacking, expected] of [
  [["avif"], "webp"],
  [["avif", "webp"], "jpeg"],
] as const) {
  test(`a browser without ${lacking.join(" or ")} shows the ${expected} copies @nojs @mobile`, async ({ page }) => {
    const images = recordImages(page);
    const articlePath = `/blog/${withImage.slug}`;
    await page.route(`${site.url}${articlePath}`, async (route) => {
      const response = await route.fetch();
      let html = await response.text();
      for (const format of lacking)
        html = html.replaceAll(`type="image/${format}"`, `type="image/x-unknown-${format}"`);
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${site.url}${articlePath}`);
    const main = page.getByRole("main");
    const hero = main.getByRole("img", { name: withImage.metaTitle, exact: true });
    for (const [image, box] of [
      [main.locator("header img"), "64x64"],
      [hero, "480x320"],
    ] as const) {
      await expect
        .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
        .toBeGreaterThan(0);
      expect(imageAddress(await image.evaluate((element: HTMLImageElement) => element.currentSrc))).toBe(
        `${link(1)} ${box}.${expected}`,
      );
    }
    await expect.poll(() => images.length).toBeGreaterThanOrEqual(2);
    expect(new Set(images.map((image) => image.type))).toEqual(new Set([`image/${expected}`]));
  });
}

test("a dead image link is hidden without moving the page, and left out once known @crosswise", async ({ page }) => {
  await page.goto(`${site.url}/blog/${deadOne.slug}`);
  const main = page.getByRole("main");
  const thumbnail = main.locator("header img");
  const title = main.getByRole("heading", { level: 1 }).first();
  // The first page was rendered before the link failed: it offers the copies, which answer 404.
  await expect(thumbnail).toHaveCount(1);
  const before = (await title.boundingBox())!.y;
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
  if (hasJavaScript(page)) await expect(thumbnail).toBeHidden();
  expect((await title.boundingBox())!.y, "nothing below the thumbnail moved").toBe(before);

  await page.reload();
  await expect(title).toHaveText(deadOne.metaTitle);
  await expect(thumbnail, "no thumbnail once the link is known dead").toHaveCount(0);
  await expect(main.locator("figure img"), "no hero either").toHaveCount(0);
  expect(host.calls()[`/dead/article-14.jpg`], "the dead source was asked for once").toBe(1);
});
