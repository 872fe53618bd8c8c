// The blog's other states: missing articles, a failing backend, loading, and the error toasts.
import type { Page } from "@playwright/test";
import { cardLinks, embedded, holdRequests, hydrated, pageOf, toasts } from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

// What a page shows does not depend on its width: these run once with and once without JavaScript,
// at 1280 px; the phone layout has tests of its own.
const wide = { tag: "@desktop" };

const ARTICLE_FAILED = "Failed to load blog post. Please try again later.";
const BLOGS_FAILED = "Failed to load blogs. Please try again later.";
const ARTICLE_MISSING = "The requested article could not be found.";

/** The article page's not-found view, with its message and the way back. */
async function expectArticleNotFound(page: Page, message: string) {
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Article Not Found");
  await expect(main.getByText(message, { exact: true })).toBeVisible();
  await expect(main.getByRole("link", { name: "Back to Blog", exact: true })).toHaveAttribute("href", "/blog");
  await expect(main.locator(".article-body")).toHaveCount(0);
}

/** With JavaScript, a destructive toast titled "Error" repeats the message; without, there is none. */
async function expectErrorToast(page: Page, message: string) {
  if (!hasJavaScript(page)) {
    await expect(toasts(page)).toHaveCount(0);
    return;
  }
  const toast = toasts(page).filter({ hasText: message });
  await expect(toast).toHaveCount(1);
  await expect(toast).toBeVisible();
  await expect(toast.getByText("Error", { exact: true }), "toast title").toBeVisible();
  await expect(toast.getByText(message, { exact: true })).toBeVisible();
  // Destructive: announced at once, as an alert.
  await expect(toast).toHaveAttribute("role", "alert");
}

test.describe("article not found", () => {
  test("an unknown slug answers 404 with Article Not Found and a way back to the blog", wide, async ({ page }) => {
    const response = await page.goto("/blog/no-such-article-here");
    expect(response?.status()).toBe(404);
    await expectArticleNotFound(page, ARTICLE_MISSING);
    if (hasJavaScript(page)) await hydrated(page);
    await expect(toasts(page), "a missing article is no error").toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: "Back to Blog", exact: true }).click();
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCardsOfFirstPage(page);
  });

  test(
    "a backend that has no such article (unknown slug or null answer) gives the same 404",
    wide,
    async ({ page }) => {
      for (const slug of ["backend-article-999", "fault-null"]) {
        const response = await page.goto(`${urls.configured}/blog/${slug}`);
        expect(response?.status(), slug).toBe(404);
        await expectArticleNotFound(page, ARTICLE_MISSING);
      }
    },
  );
});

test.describe("backend failures", () => {
  test(
    "an article the backend fails on answers 503 with the error message and an error toast",
    wide,
    async ({ page }) => {
      const response = await page.goto(`${urls.configured}/blog/fault-500`);
      expect(response?.status()).toBe(503);
      await expectArticleNotFound(page, ARTICLE_FAILED);
      await expectErrorToast(page, ARTICLE_FAILED);
    },
  );

  test("every kind of misbehaving backend answer gives 503 for the article", wide, async ({ page }) => {
    test.setTimeout(60_000);
    const slugs = [
      "fault-500",
      "fault-401",
      "fault-hang",
      "fault-not-json",
      "fault-truncated",
      "fault-wrong-types",
      "fault-huge",
    ];
    const answers = await Promise.all(
      slugs.map(async (slug) => {
        const response = await page.request.get(`${urls.configured}/blog/${slug}`, {
          maxRedirects: 0,
          timeout: 30_000,
        });
        return [slug, response.status(), await response.text()] as const;
      }),
    );
    for (const [slug, status, html] of answers) {
      expect(status, slug).toBe(503);
      expect(html, slug).toContain(ARTICLE_FAILED);
    }
  });

  test("a backend that cannot be reached: the article answers 503 with the error message", wide, async ({ page }) => {
    const response = await page.goto(`${urls.broken}/blog/${embedded[0]!.slug}`);
    expect(response?.status()).toBe(503);
    await expectArticleNotFound(page, ARTICLE_FAILED);
    await expectErrorToast(page, ARTICLE_FAILED);
  });

  test(
    "a backend that cannot be reached: the blog list answers 503 with an error box and an error toast",
    { tag: "@crosswise" },
    async ({ page }) => {
      const response = await page.goto(`${urls.broken}/blog`);
      expect(response?.status()).toBe(503);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest Articles & Insights");
      const box = page.getByRole("main").getByRole("alert");
      await expect(box).toHaveText(BLOGS_FAILED);
      await expect(box).toBeVisible();
      await expect(cardLinks(page)).toHaveCount(0);
      await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
      await expectErrorToast(page, BLOGS_FAILED);
    },
  );
});

async function expectCardsOfFirstPage(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest Articles & Insights");
  const expected = pageOf(embedded, 1).map((article) => `/blog/${article.slug}`);
  await expect(cardLinks(page)).toHaveCount(expected.length);
  expect(await cardLinks(page).evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual(
    expected,
  );
}

test.describe("loading", () => {
  test(
    "opening an article from the list shows Loading article... until it arrives",
    { tag: "@js" },
    async ({ page }) => {
      const article = pageOf(embedded, 1)[1]!;
      await page.goto("/blog");
      await hydrated(page);
      const hold = await holdRequests(page, `**/blog/${article.slug}.data*`);
      await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
      await page.getByRole("main").locator(`a[href="/blog/${article.slug}"]`).click();
      await hold.held;
      const loading = page.getByText("Loading article...", { exact: true });
      await expect(loading).toBeVisible();
      await hold.release();
      await expect(page).toHaveURL(`${urls.demo}/blog/${article.slug}`);
      await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(article.metaTitle);
      await expect(loading).toHaveCount(0);
      await expect(page).toHaveTitle(article.metaTitle);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", article.metaDescription);
      expect(
        await page.evaluate(() => (window as unknown as { __marker?: number }).__marker),
        "no full page load",
      ).toBe(1);
    },
  );

  test("a failure after client-side navigation shows the error view and a toast", { tag: "@js" }, async ({ page }) => {
    await page.goto(`${urls.configured}/blog`);
    await hydrated(page);
    const hold = await holdRequests(page, "**/blog/fault-500.data*");
    // No page links to a failing article: go there through the app's router, as a link would.
    await page.evaluate(() => {
      const router = (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } })
        .__remixRouter;
      void router.navigate("/blog/fault-500");
    });
    await hold.held;
    await expect(page.getByText("Loading article...", { exact: true })).toBeVisible();
    await hold.release();
    await expect(page).toHaveURL(`${urls.configured}/blog/fault-500`);
    await expectArticleNotFound(page, ARTICLE_FAILED);
    await expectErrorToast(page, ARTICLE_FAILED);
  });
});
