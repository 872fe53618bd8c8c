// The end of an article: up to three other articles to read next, as cards, between the keywords and
// "Back to All Articles"; among all the site's articles (the catalogue) shared keywords first (the embedded
// articles); the newest list page's newest where the catalogue has not read the whole list (the hosted
// backend here, whose catalogue does not sync in these tests, and whose list has no keywords).
import type { Page } from "@playwright/test";
import { pickReadNext } from "../../app/search/read-next";
import {
  backend,
  embedded,
  expectedImage,
  hydrated,
  imageAddress,
  keywords,
  pageOf,
  type Article,
} from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

const section = (page: Page) => page.getByRole("region", { name: "Read next" });
const cards = (page: Page) => section(page).getByRole("listitem");

const keywordsOf = (article: Article) => [
  ...keywords(article.shortTailKeywords),
  ...keywords(article.longTailKeywords),
];

/** What every embedded article, newest first, suggests for `article`, by the ranking the unit tests pin down. */
function suggestedFor(article: Article): Article[] {
  const all = embedded.map((item) => ({ ...item, keywords: keywordsOf(item) }));
  return pickReadNext({ slug: article.slug, keywords: keywordsOf(article) }, all);
}

/** An embedded article whose suggestions are not simply the newest: shared keywords put an older one first. */
const ranked = embedded.find((article) => {
  const newestOthers = pageOf(embedded, 1).filter((item) => item.slug !== article.slug);
  return suggestedFor(article)[0]?.slug !== newestOthers[0]?.slug;
})!;

async function shownCards(page: Page) {
  return cards(page).evaluateAll((items) =>
    items.map((item) => {
      const link = item.querySelector("a");
      const image = item.querySelector("img");
      return {
        href: link?.getAttribute("href") ?? null,
        title: item.querySelector("h3")?.textContent?.trim() ?? null,
        description: item.querySelector("p")?.textContent?.trim() ?? null,
        image: image?.getAttribute("src") ?? null,
        loading: image?.getAttribute("loading") ?? null,
      };
    }),
  );
}

test.describe("read next", () => {
  test("an article ends with three other articles, shared keywords first, before Back to All Articles @crosswise", async ({
    page,
  }) => {
    expect(ranked, "the content has an article whose keyword matches are not the newest").toBeTruthy();
    const response = await page.goto(`/blog/${ranked.slug}`);
    expect(response?.status()).toBe(200);

    // A real heading that names the section, a level below the page's title.
    await expect(section(page)).toBeVisible();
    await expect(section(page).getByRole("heading", { level: 2 })).toHaveText("Read next");
    await expect(section(page)).toHaveAttribute("data-read-next", "");

    const expected = suggestedFor(ranked);
    expect(expected).toHaveLength(3);
    const shown = await shownCards(page);
    expect(shown.map((card) => ({ ...card, image: card.image && imageAddress(card.image) }))).toEqual(
      expected.map((article) => ({
        href: `/blog/${article.slug}`,
        title: article.metaTitle,
        description: article.metaDescription,
        // The same 80 px round copies as on /blog, loaded lazily: they are below the fold.
        image: article.pinterestImageLink ? expectedImage(article.pinterestImageLink, "card").src : null,
        loading: article.pinterestImageLink ? "lazy" : null,
      })),
    );
    expect(shown.map((card) => card.href)).not.toContain(`/blog/${ranked.slug}`);

    // After the keywords and before the closing link back to the list.
    const main = page.getByRole("main");
    const keywordsBox = (await main
      .locator("section", { has: page.getByRole("heading", { name: "Tags & Keywords" }) })
      .boundingBox())!;
    const box = (await section(page).boundingBox())!;
    const back = (await main.getByRole("link", { name: "Back to All Articles" }).boundingBox())!;
    expect(box.y).toBeGreaterThan(keywordsBox.y + keywordsBox.height - 1);
    expect(back.y).toBeGreaterThan(box.y + box.height - 1);
  });

  test("a suggestion leads to its article: in the page with JavaScript, by a page load without @crosswise", async ({
    page,
  }) => {
    const [first] = suggestedFor(ranked);
    await page.goto(`/blog/${ranked.slug}`);
    const javaScript = hasJavaScript(page);
    if (javaScript) {
      await hydrated(page);
      await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true));
    }
    await cards(page).first().getByRole("link").click();
    await expect(page).toHaveURL(`${urls.demo}/blog/${first!.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(first!.metaTitle);
    // The new article suggests others, and not itself.
    await expect(cards(page)).toHaveCount(3);
    await expect(section(page).locator(`a[href="/blog/${first!.slug}"]`)).toHaveCount(0);
    if (javaScript)
      expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed), "no page load").toBe(true);
  });

  test("a suggestion is prefetched when the pointer rests on it", { tag: ["@js", "@desktop"] }, async ({ page }) => {
    const [first] = suggestedFor(ranked);
    await page.goto(`/blog/${ranked.slug}`);
    await hydrated(page);
    const data = page.waitForRequest((request) => new URL(request.url()).pathname === `/blog/${first!.slug}.data`);
    await cards(page).first().getByRole("link").hover();
    await data;
  });

  test(
    "the hosted backend's list has no keywords: the newest articles, never the article itself",
    { tag: ["@js", "@desktop"] },
    async ({ page }) => {
      const article = backend[1]!;
      await page.goto(`${urls.configured}/blog/${article.slug}`);
      const newestOthers = backend.filter((item) => item.slug !== article.slug).slice(0, 3);
      await expect(cards(page).getByRole("heading", { level: 3 })).toHaveText(
        newestOthers.map((item) => item.metaTitle),
      );
    },
  );

  test("the cards stack in one column on a phone and sit in one row on a wide screen @crosswise", async ({ page }) => {
    await page.goto(`/blog/${ranked.slug}`);
    const boxes = await cards(page).evaluateAll((items) => items.map((item) => item.getBoundingClientRect()));
    const rows = new Set(boxes.map((box) => Math.round(box.top)));
    const wide = page.viewportSize()!.width >= 768;
    expect(rows.size, wide ? "one row" : "one column").toBe(wide ? 1 : 3);
  });
});
