// The article page (/blog/{slug}): header, date, hero, markdown body, video, keywords, links, head tags.
import type { Page } from "@playwright/test";
import {
  backend,
  embedded,
  headOf,
  hydrated,
  keywords,
  longDate,
  markdownHeadings,
  pick,
  plainInline,
  readingMinutes,
  copiesOf,
  expectedImage,
  shownImage,
  videoId,
  type Article,
} from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

// What a page shows does not depend on its width: these run once with and once without JavaScript,
// at 1280 px; the phone layout has tests of its own.
const wide = { tag: "@desktop" };

const EMBED_PARAMS = {
  autoplay: "0",
  mute: "1",
  controls: "1",
  showinfo: "0",
  rel: "0",
  iv_load_policy: "3",
  modestbranding: "1",
};

const body = (page: Page) => page.locator("main .article-body");
const thumbnail = (page: Page) => page.getByRole("main").locator("header img");
const hero = (page: Page, article: Article) =>
  page.getByRole("main").getByRole("img", { name: article.metaTitle, exact: true });
const keywordSection = (page: Page) =>
  page.getByRole("main").locator("section", { has: page.getByRole("heading", { name: "Tags & Keywords" }) });
const videoHeading = (page: Page) => page.getByRole("heading", { name: "Related YouTube Short" });

/** Markdown inline links [text](url), not images. */
function markdownLinks(markdown: string): string[] {
  return [...markdown.matchAll(/(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

/** Everything on an article page that follows from the article's fields. */
async function expectArticle(page: Page, article: Article, { imagesLoad }: { imagesLoad: boolean }) {
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 }).first()).toHaveText(article.metaTitle);
  await expect(main.getByText(/^Published on/)).toHaveText(`Published on ${longDate(article.date)}`);
  await expect(main.locator("header").getByText(/ min read$/)).toHaveText(`${readingMinutes(article.body)} min read`);
  if (article.metaDescription) await expect(main.getByText(article.metaDescription, { exact: true })).toBeVisible();

  // Thumbnail and hero only when there is an image.
  if (!article.pinterestImageLink) {
    await expect(thumbnail(page), `${article.slug}: no thumbnail`).toHaveCount(0);
    await expect(hero(page, article), `${article.slug}: no hero`).toHaveCount(0);
    await expect(main.getByRole("link", { name: "View on Pinterest" })).toHaveCount(0);
  } else if (!imagesLoad) {
    // A source that fails is hidden (with JavaScript), and left out of pages rendered once it is known dead.
    if (hasJavaScript(page)) await expect(thumbnail(page), "a thumbnail that cannot load is hidden").toBeHidden();
  } else {
    const link = article.pinterestImageLink;
    expect(await shownImage(thumbnail(page)), "the thumbnail: 64 px, 1x and 2x").toEqual(
      expectedImage(link, "articleThumbnail"),
    );
    expect(await shownImage(hero(page, article)), "the hero: column widths").toEqual(expectedImage(link, "hero"));
    const pinterest = main.getByRole("link", { name: "View on Pinterest" });
    await expect(pinterest).toHaveAttribute("href", article.pinterestImageLink);
    await expect(pinterest).toHaveAttribute("target", "_blank");
    await expect(pinterest).toHaveAttribute("rel", /\bnoopener\b/);
  }

  // The markdown body.
  const content = body(page);
  await expect(content).toBeVisible();
  for (const level of [1, 2, 3] as const) {
    const expected = markdownHeadings(article.body, level).map(plainInline);
    await expect(content.locator(`h${level}`), `${article.slug}: h${level}`).toHaveText(expected);
  }
  expect(await content.locator("p").count(), "paragraphs").toBeGreaterThan(0);
  const has = (pattern: RegExp) => pattern.test(article.body);
  const quotes = content.locator("blockquote");
  const bullets = content.locator("ul");
  const numbered = content.locator("ol");
  if (has(/^>/m)) expect(await quotes.count(), `${article.slug}: blockquote`).toBeGreaterThan(0);
  else await expect(quotes).toHaveCount(0);
  if (has(/^\s*[-*+]\s/m)) expect(await bullets.count(), `${article.slug}: bulleted list`).toBeGreaterThan(0);
  else await expect(bullets).toHaveCount(0);
  if (has(/^\s*\d+\.\s/m)) expect(await numbered.count(), `${article.slug}: numbered list`).toBeGreaterThan(0);
  else await expect(numbered).toHaveCount(0);
  const links = content.locator("a");
  const hrefs = markdownLinks(article.body);
  await expect(links, `${article.slug}: links`).toHaveCount(hrefs.length);
  for (const [index, href] of hrefs.entries()) {
    await expect(links.nth(index)).toHaveAttribute("href", href);
    await expect(links.nth(index)).toHaveAttribute("target", "_blank");
    await expect(links.nth(index)).toHaveAttribute("rel", "noopener noreferrer");
  }

  // The video, only for a shorts or youtu.be link.
  const id = videoId(article.youtubeShortsUrl);
  if (id) {
    await expect(videoHeading(page)).toBeVisible();
    await expect(main.locator("iframe")).toHaveCount(1);
    expect(new URL((await main.locator("iframe").getAttribute("src"))!).pathname).toBe(`/embed/${id}`);
  } else {
    await expect(videoHeading(page), `${article.slug}: no video section`).toHaveCount(0);
    await expect(main.locator("iframe")).toHaveCount(0);
  }

  // Keywords: one chip group per kind that has any.
  const short = keywords(article.shortTailKeywords);
  const long = keywords(article.longTailKeywords);
  const section = keywordSection(page);
  if (short.length === 0 && long.length === 0) {
    await expect(section, `${article.slug}: no keywords section`).toHaveCount(0);
  } else {
    await expect(section).toBeVisible();
    const groups = section.getByRole("list");
    const expected = [short, long].filter((group) => group.length > 0);
    await expect(groups, `${article.slug}: chip groups`).toHaveCount(expected.length);
    for (const [index, group] of expected.entries()) {
      await expect(groups.nth(index).getByRole("listitem")).toHaveText(group);
    }
  }

  await expect(main.getByRole("link", { name: "Back to Blog", exact: true })).toHaveAttribute("href", "/blog");
  await expect(main.getByRole("link", { name: "Back to All Articles" })).toHaveAttribute("href", "/blog");
}

test.describe("article page", () => {
  // Each embedded article once, with and without JavaScript by turns (the same server HTML; hydration errors
  // fail any test): both kinds of visitor meet both halves of the articles (docs/decisions/051).
  for (const [index, article] of embedded.entries()) {
    const tag = index % 2 === 0 ? ["@js", "@desktop"] : ["@nojs", "@desktop"];
    test(`${article.slug} shows its own header, body, video and keywords`, { tag }, async ({ page }) => {
      const response = await page.goto(`/blog/${article.slug}`);
      expect(response?.status()).toBe(200);
      await expectArticle(page, article, { imagesLoad: true });
    });
  }

  test("hosted backend articles follow their fields: video, hero, keyword groups", wide, async ({ page }) => {
    const chosen = [
      pick(backend, "with a shorts video", (article) => !!videoId(article.youtubeShortsUrl)),
      pick(
        backend,
        "with a video URL that is no short",
        (article) => !!article.youtubeShortsUrl && !videoId(article.youtubeShortsUrl),
      ),
      pick(backend, "without an image", (article) => !article.pinterestImageLink),
      pick(
        backend,
        "with only long-tail keywords",
        (article) => !article.shortTailKeywords && !!article.longTailKeywords,
      ),
      pick(
        backend,
        "with only short-tail keywords",
        (article) => !!article.shortTailKeywords && !article.longTailKeywords,
      ),
      pick(backend, "without keywords", (article) => !article.shortTailKeywords && !article.longTailKeywords),
    ];
    for (const article of chosen) {
      const response = await page.goto(`${urls.configured}/blog/${article.slug}`);
      expect(response?.status(), article.slug).toBe(200);
      await expectArticle(page, article, { imagesLoad: false });
    }
  });

  test("keywords are split on commas, trimmed and empties dropped", wide, async ({ page }) => {
    const untidy = /,\s*,|^\s|\s,|,\s*$|,\S/;
    const cases: [string, Article][] = [
      [
        urls.configured,
        pick(backend, "with untidy keywords", (article) => untidy.test(article.shortTailKeywords ?? "")),
      ],
    ];
    const local = embedded.find((article) => untidy.test(article.shortTailKeywords ?? ""));
    if (local) cases.push([urls.demo, local]);
    for (const [base, article] of cases) {
      await page.goto(`${base}/blog/${article.slug}`);
      const chips = keywordSection(page).getByRole("list").first().getByRole("listitem");
      await expect(chips).toHaveText(keywords(article.shortTailKeywords));
      for (const chip of await chips.allTextContents()) {
        expect(chip, "trimmed").toBe(chip.trim());
        expect(chip, "no empty chip").not.toBe("");
      }
    }
  });

  test(
    "links back to the blog at the top and at the end; the header shows a round thumbnail",
    wide,
    async ({ page }) => {
      const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);
      await page.goto(`/blog/${article.slug}`);
      const main = page.getByRole("main");
      const back = main.getByRole("link", { name: "Back to Blog", exact: true });
      const title = main.getByRole("heading", { level: 1 }).first();
      expect((await back.boundingBox())!.y, "Back to Blog above the title").toBeLessThan(
        (await title.boundingBox())!.y,
      );

      const look = await thumbnail(page).evaluate((image) => ({
        width: image.getBoundingClientRect().width,
        height: image.getBoundingClientRect().height,
        radius: parseFloat(getComputedStyle(image).borderTopLeftRadius),
      }));
      expect(look.width).toBeGreaterThan(0);
      expect(look.width).toBeCloseTo(look.height, 0);
      expect(look.radius, "round thumbnail").toBeGreaterThanOrEqual(look.width / 2);
      const heroBox = (await hero(page, article).boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(heroBox.height, "hero height 16rem on small screens, 24rem from medium up").toBeCloseTo(
        viewport.width < 768 ? 256 : 384,
        0,
      );
      expect(heroBox.width).toBeGreaterThan(look.width * 4);

      const last = main.getByRole("link", { name: "Back to All Articles" });
      expect((await last.boundingBox())!.y, "Back to All Articles at the end").toBeGreaterThan(
        (await body(page).boundingBox())!.y,
      );
      await last.click();
      await expect(page).toHaveURL(`${urls.demo}/blog`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest Articles & Insights");

      await page.goto(`/blog/${article.slug}`);
      await main.getByRole("link", { name: "Back to Blog", exact: true }).click();
      await expect(page).toHaveURL(`${urls.demo}/blog`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest Articles & Insights");
    },
  );

  test("View on Pinterest appears when the pointer is over the hero image", { tag: "@desktop" }, async ({ page }) => {
    const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);
    await page.goto(`/blog/${article.slug}`);
    const pinterest = page.getByRole("main").getByRole("link", { name: "View on Pinterest" });
    const opacity = () => pinterest.evaluate((link) => Number(getComputedStyle(link).opacity));
    await page.mouse.move(0, 0);
    await expect.poll(opacity).toBe(0);
    await hero(page, article).hover();
    await expect.poll(opacity).toBe(1);
    await expect(pinterest).toBeVisible();
    await page.mouse.move(0, 0);
    await expect.poll(opacity).toBe(0);
  });

  test("the short video is a muted, lazy, portrait embed without autoplay", wide, async ({ page }) => {
    const shorts = pick(embedded, "with a shorts URL", (item) => /\/shorts\//.test(item.youtubeShortsUrl ?? ""));
    const shortLink = pick(embedded, "with a youtu.be URL", (item) => /youtu\.be\//.test(item.youtubeShortsUrl ?? ""));
    for (const article of [shorts, shortLink]) {
      await page.goto(`/blog/${article.slug}`);
      await expect(videoHeading(page)).toBeVisible();
      const frame = page.getByRole("main").locator("iframe");
      await expect(frame).toHaveAttribute("loading", "lazy");
      const src = new URL((await frame.getAttribute("src"))!);
      expect(src.protocol).toBe("https:");
      expect(src.hostname).toMatch(/(^|\.)youtube(-nocookie)?\.com$/);
      expect(src.pathname).toBe(`/embed/${videoId(article.youtubeShortsUrl)}`);
      expect(Object.fromEntries(src.searchParams), `${article.slug}: player parameters`).toEqual(EMBED_PARAMS);
      expect([...src.searchParams.keys()].length).toBe(Object.keys(EMBED_PARAMS).length);
      await frame.scrollIntoViewIfNeeded();
      const box = (await frame.boundingBox())!;
      expect(box.height).toBeGreaterThan(100);
      expect(box.width / box.height, "portrait 9:16").toBeCloseTo(9 / 16, 2);
    }
  });

  test("tab title and description meta tag come from the article, in the server's HTML too", wide, async ({ page }) => {
    // One with an apostrophe or ampersand in the title if there is one, to cover HTML escaping.
    const article = embedded.find((item) => /['&"]/.test(item.metaTitle)) ?? embedded[0]!;
    const served = await page.request.get(`/blog/${article.slug}`);
    expect(served.status()).toBe(200);
    const head = headOf(await served.text());
    expect(head.titles).toEqual([article.metaTitle]);
    expect(head.descriptions).toEqual([article.metaDescription]);

    await page.goto(`/blog/${article.slug}`);
    await expect(page).toHaveTitle(article.metaTitle);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", article.metaDescription);
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);

    const other = backend[0]!;
    const hosted = headOf(await (await page.request.get(`${urls.configured}/blog/${other.slug}`)).text());
    expect(hosted.titles).toEqual([other.metaTitle]);
    expect(hosted.descriptions).toEqual([other.metaDescription]);
  });

  test("raw HTML in the markdown is shown as text and never runs", wide, async ({ page }) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const article = pick(backend, "with raw HTML in the body", (item) => /<img\b[^>]*onerror/.test(item.body));
    const raw = /<img\b[^>]*>/.exec(article.body)![0];
    await page.goto(`${urls.configured}/blog/${article.slug}`);
    const content = body(page);
    await expect(content).toContainText(raw);
    await expect(content.locator("img")).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    if (hasJavaScript(page)) await hydrated(page);
    expect(dialogs, "no script from the article ran").toEqual([]);
  });

  test("a thumbnail that fails to load is hidden, keeping its place", { tag: "@js" }, async ({ page }) => {
    const article = pick(embedded, "with an image", (item) => !!item.pinterestImageLink);
    await page.route(copiesOf(article.pinterestImageLink!), (route) => route.abort("failed"));
    await page.goto(`/blog/${article.slug}`);
    const title = page.getByRole("main").getByRole("heading", { level: 1 }).first();
    await expect(title).toHaveText(article.metaTitle);
    await expect(thumbnail(page)).toBeHidden();
    expect(await thumbnail(page).evaluate((image) => image.getBoundingClientRect().height), "its box stays").toBe(64);

    // The hosted backend's images are on a host that cannot be reached.
    const hosted = pick(backend, "with an image", (item) => !!item.pinterestImageLink);
    await page.goto(`${urls.configured}/blog/${hosted.slug}`);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 }).first()).toHaveText(hosted.metaTitle);
    await expect(thumbnail(page)).toBeHidden();
  });
});

for (const timezoneId of ["Pacific/Kiritimati", "America/Los_Angeles"]) {
  test.describe(`published date in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test(
      "prints the article's UTC date, on a full load and after client-side navigation",
      { tag: "@js" },
      async ({ page }) => {
        expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);
        const article = embedded[0]!;
        const published = page.getByRole("main").getByText(/^Published on/);

        await page.goto(`/blog/${article.slug}`);
        await hydrated(page);
        await expect(published).toHaveText(`Published on ${longDate(article.date)}`);

        // Rendered by the browser alone: from the list to the article without a page load.
        await page.goto("/blog");
        await hydrated(page);
        await page.getByRole("main").locator(`a[href="/blog/${article.slug}"]`).click();
        await expect(page).toHaveURL(`${urls.demo}/blog/${article.slug}`);
        await expect(published).toHaveText(`Published on ${longDate(article.date)}`);
        await expect(published.locator("time")).toHaveText(longDate(article.date));
      },
    );
  });
}
