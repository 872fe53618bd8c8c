// The blog list (/blog): heading, cards, grid, images, pagination, page changes and the page parameter.
import type { Locator, Page } from "@playwright/test";
import {
  MAX_PAGE_LINKS,
  backend,
  cardLinks,
  embedded,
  holdRequests,
  hydrated,
  pageCount,
  pageHref,
  pageOf,
  pagination,
  copiesOf,
  expectedImage,
  imageAddress,
  type Article,
} from "./blog-helpers";
import { expect, test, urls } from "./fixtures";

// What a page shows does not depend on its width: these run once with and once without JavaScript,
// at 1280 px; the phone layout has tests of its own.
const wide = { tag: "@desktop" };

const demoPages = pageCount(embedded);

/** The list shows exactly these articles, in this order, each as a complete card. */
async function expectCards(page: Page, articles: Article[], { imagesLoad = true } = {}) {
  const unchecked = "(not checked: cannot load)";
  const expected = articles.map((article) => ({
    href: `/blog/${article.slug}`,
    title: article.metaTitle,
    description: article.metaDescription,
    readMore: true,
    shown: true,
    image: !article.pinterestImageLink
      ? null
      : imagesLoad
        ? expectedImage(article.pinterestImageLink, "card").src
        : unchecked,
  }));
  const actual = async () => {
    const cards = await cardLinks(page).evaluateAll((links) =>
      links.map((link) => ({
        href: link.getAttribute("href"),
        title: link.querySelector("h1, h2, h3, h4")?.textContent?.trim() ?? null,
        paragraphs: [...link.querySelectorAll("p")].map((paragraph) => paragraph.textContent?.trim() ?? ""),
        readMore: (link.textContent ?? "").includes("Read More"),
        shown: link.getBoundingClientRect().height > 0,
        image: link.querySelector("img")?.getAttribute("src") ?? null,
      })),
    );
    return cards.map(({ paragraphs, ...card }, index) => {
      const want = expected[index];
      return {
        ...card,
        description: want && paragraphs.includes(want.description) ? want.description : paragraphs.join(" | "),
        image: want?.image === unchecked ? unchecked : card.image && imageAddress(card.image),
      };
    });
  };
  await expect.poll(actual, { message: "the cards of the list" }).toEqual(expected);
}

test.describe("blog list", () => {
  test(
    "shows the heading, the intro and the newest articles as clamped cards with round images",
    { tag: "@crosswise" },
    async ({ page }) => {
      const response = await page.goto("/blog");
      expect(response?.status()).toBe(200);
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveText("Latest Articles & Insights");
      // The intro text right under the heading.
      const intro = page.getByRole("main").locator("h1 + p");
      await expect(intro).toBeVisible();
      expect((await intro.innerText()).trim().length).toBeGreaterThan(20);

      await expectCards(page, pageOf(embedded, 1));

      const cards = cardLinks(page);
      for (let index = 0; index < (await cards.count()); index += 1) {
        const card = cards.nth(index);
        const look = await card.evaluate((link) => {
          const title = link.querySelector("h2, h3")!;
          const description = title.nextElementSibling!;
          const image = link.querySelector("img");
          const style = (element: Element) => getComputedStyle(element);
          const lines = (element: Element) => {
            const lineHeight = parseFloat(style(element).lineHeight);
            return element.getBoundingClientRect().height / lineHeight;
          };
          return {
            titleClamp: style(title).webkitLineClamp,
            titleOverflow: style(title).overflow,
            titleLines: lines(title),
            descriptionClamp: style(description).webkitLineClamp,
            descriptionOverflow: style(description).overflow,
            descriptionLines: lines(description),
            image: image
              ? {
                  width: image.getBoundingClientRect().width,
                  height: image.getBoundingClientRect().height,
                  radius: parseFloat(style(image).borderTopLeftRadius),
                }
              : null,
          };
        });
        expect(look.titleClamp, "title clamped to 2 lines").toBe("2");
        expect(look.titleOverflow).toBe("hidden");
        expect(look.titleLines, "title shows at most 2 lines").toBeLessThanOrEqual(2.05);
        expect(look.descriptionClamp, "description clamped to 3 lines").toBe("3");
        expect(look.descriptionOverflow).toBe("hidden");
        // A clamped box stretched taller than its lines would show those after the "…".
        expect(look.descriptionLines, "description shows at most 3 lines").toBeLessThanOrEqual(3.05);
        if (look.image) {
          expect(look.image.width).toBeGreaterThan(0);
          expect(look.image.width).toBeCloseTo(look.image.height, 0);
          expect(look.image.radius, "round image").toBeGreaterThanOrEqual(look.image.width / 2);
        }
      }
    },
  );

  test("a card leads to its article", wide, async ({ page }) => {
    const [first] = pageOf(embedded, 1);
    await page.goto("/blog");
    await cardLinks(page).first().click();
    await expect(page).toHaveURL(`${urls.demo}/blog/${first!.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(first!.metaTitle);
  });

  test(
    "lays the cards out in three columns on a wide screen and two on a medium one",
    { tag: "@desktop" },
    async ({ page }) => {
      await page.goto("/blog");
      const columns = async () => {
        const boxes = await cardLinks(page).evaluateAll((links) => links.map((link) => link.getBoundingClientRect().x));
        return new Set(boxes.map((x) => Math.round(x))).size;
      };
      await expect.poll(columns).toBe(3);
      const [a, b, c, d] = await cardLinks(page).evaluateAll((links) =>
        links.slice(0, 4).map((link) => link.getBoundingClientRect()),
      );
      expect(Math.round(a!.y)).toBe(Math.round(b!.y));
      expect(Math.round(b!.y)).toBe(Math.round(c!.y));
      expect(d!.y).toBeGreaterThan(a!.y);
      expect(Math.round(d!.x)).toBe(Math.round(a!.x));
      await page.setViewportSize({ width: 800, height: 800 });
      await expect.poll(columns).toBe(2);
    },
  );

  test("stacks the cards in one column on a phone", { tag: "@mobile" }, async ({ page }) => {
    await page.goto("/blog");
    const boxes = await cardLinks(page).evaluateAll((links) => links.map((link) => link.getBoundingClientRect()));
    expect(boxes.length).toBeGreaterThan(1);
    expect(new Set(boxes.map((box) => Math.round(box.x))).size).toBe(1);
    for (let index = 1; index < boxes.length; index += 1) expect(boxes[index]!.y).toBeGreaterThan(boxes[index - 1]!.y);
    // No horizontal scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test("a card image that fails to load is hidden, keeping its place", { tag: "@js" }, async ({ page }) => {
    const articles = pageOf(embedded, 1);
    const failing = articles.find((article) => article.pinterestImageLink)!;
    const working = articles.filter((article) => article.pinterestImageLink && article !== failing);
    expect(failing, "an article with an image on page 1").toBeTruthy();
    await page.route(copiesOf(failing.pinterestImageLink!), (route) => route.abort("failed"));
    await page.goto("/blog");
    const failingCard = cardLinks(page).and(page.locator(`[href="/blog/${failing.slug}"]`));
    await expect(failingCard).toBeVisible();
    await expect(failingCard.locator("img")).toBeHidden();
    expect(
      await failingCard.locator("img").evaluate((image) => image.getBoundingClientRect().height),
      "its box stays",
    ).toBe(80);
    await expect(failingCard.getByRole("heading")).toHaveText(failing.metaTitle);
    for (const article of working) {
      await expect(page.locator(`a[href="/blog/${article.slug}"] img`)).toBeVisible();
    }
  });

  test("images of the hosted backend that cannot load are hidden or left out", { tag: "@js" }, async ({ page }) => {
    await page.goto(`${urls.configured}/blog`);
    await expectCards(page, pageOf(backend, 1), { imagesLoad: false });
    const cards = cardLinks(page);
    for (let index = 0; index < (await cards.count()); index += 1) {
      // Lazy images only load (and fail) when they come into view.
      await cards.nth(index).scrollIntoViewIfNeeded();
      await expect(cards.nth(index).locator("img"), `card ${index + 1} image`).toBeHidden();
    }
  });
});

/** The link to page `number` in the pagination (its name may be "2" or "Page 2"). */
function numberLink(nav: Locator, number: number): Locator {
  return nav.getByRole("link", { name: new RegExp(`^(Page )?${number}$`) });
}

test.describe("pagination", () => {
  /** Checks every control of the pagination for page `current` of `pages`. */
  async function expectPagination(page: Page, current: number, pages: number) {
    const nav = pagination(page);
    await expect(nav).toBeVisible();
    const previous = nav.getByText("Previous", { exact: true });
    const next = nav.getByText("Next", { exact: true });
    if (current === 1) {
      await expect(previous, "Previous is disabled on page 1").toHaveAttribute("aria-disabled", "true");
      expect(await previous.evaluate((element) => element.closest("a"))).toBeNull();
    } else {
      await expect(nav.getByRole("link", { name: "Previous" })).toHaveAttribute("href", pageHref(current - 1));
    }
    if (current === pages) {
      await expect(next, "Next is disabled on the last page").toHaveAttribute("aria-disabled", "true");
      expect(await next.evaluate((element) => element.closest("a"))).toBeNull();
    } else {
      await expect(nav.getByRole("link", { name: "Next" })).toHaveAttribute("href", pageHref(current + 1));
    }
    // The numbers: at most five consecutive pages that include the current one.
    const numbers = (await nav.getByText(/^\d+$/).allInnerTexts()).map(Number);
    expect(numbers.length).toBe(Math.min(MAX_PAGE_LINKS, pages));
    expect(numbers).toContain(current);
    numbers.forEach((number, index) => index > 0 && expect(number).toBe(numbers[index - 1]! + 1));
    expect(numbers[0]).toBeGreaterThanOrEqual(1);
    expect(numbers.at(-1)).toBeLessThanOrEqual(pages);
    for (const number of numbers) {
      const item = nav.getByText(String(number), { exact: true });
      if (number === current) {
        await expect(item).toHaveAttribute("aria-current", "page");
        expect(await item.evaluate((element) => element.closest("a"))).toBeNull();
      } else {
        await expect(numberLink(nav, number)).toHaveAttribute("href", pageHref(number));
      }
    }
  }

  test("shows Previous, the page numbers and Next as plain links on every page", wide, async ({ page }) => {
    test.slow(); // several page loads
    expect(demoPages, "the demo content has more than one page").toBeGreaterThan(1);
    await page.goto("/blog");
    await expectPagination(page, 1, demoPages);
    const response = await page.goto(`/blog?page=${demoPages}`);
    expect(response?.status()).toBe(200);
    await expectCards(page, pageOf(embedded, demoPages));
    await expectPagination(page, demoPages, demoPages);

    // The hosted backend's 23 articles: three pages, with a middle one.
    const backendPages = pageCount(backend);
    for (let current = 1; current <= backendPages; current += 1) {
      await page.goto(`${urls.configured}${pageHref(current)}`);
      await expectCards(page, pageOf(backend, current), { imagesLoad: false });
      await expectPagination(page, current, backendPages);
    }
  });

  test("pages forward and back without reloading, scrolling to the top", { tag: "@js" }, async ({ page }) => {
    test.slow(); // several page loads
    await page.goto("/blog");
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    const marker = () => page.evaluate(() => (window as unknown as { __marker?: number }).__marker);
    const nav = pagination(page);

    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await nav.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`${urls.demo}/blog?page=2`);
    await expectCards(page, pageOf(embedded, 2));
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: "scrolled to the top" }).toBe(0);
    expect(await marker(), "no full page load").toBe(1);

    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }));
    await nav.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCards(page, pageOf(embedded, 1));
    await expect.poll(() => page.evaluate(() => window.scrollY), { message: "scrolled to the top" }).toBe(0);

    await numberLink(nav, 2).click();
    await expect(page).toHaveURL(`${urls.demo}/blog?page=2`);
    await expectCards(page, pageOf(embedded, 2));
    await page.goBack();
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCards(page, pageOf(embedded, 1));
    expect(await marker(), "no full page load").toBe(1);
  });

  test("pages forward and back with full page loads without JavaScript", { tag: "@nojs" }, async ({ page }) => {
    test.slow(); // several page loads
    await page.goto("/blog");
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    const nav = pagination(page);
    const documentLoad = (path: string) =>
      page.waitForRequest((request) => request.isNavigationRequest() && request.url() === `${urls.demo}${path}`);

    let load = documentLoad("/blog?page=2");
    await nav.getByRole("link", { name: "Next" }).click();
    await load;
    await expect(page).toHaveURL(`${urls.demo}/blog?page=2`);
    await expectCards(page, pageOf(embedded, 2));
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBeUndefined();

    load = documentLoad("/blog");
    await nav.getByRole("link", { name: "Previous" }).click();
    await load;
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCards(page, pageOf(embedded, 1));

    load = documentLoad("/blog?page=2");
    await numberLink(nav, 2).click();
    await load;
    await expectCards(page, pageOf(embedded, 2));
    await page.goBack();
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCards(page, pageOf(embedded, 1));
  });

  test(
    "while a page change loads, shows Loading... under the list and disables every control",
    { tag: "@js" },
    async ({ page }) => {
      await page.goto("/blog");
      await hydrated(page);
      const nav = pagination(page);
      const hold = await holdRequests(page, "**/blog.data*");
      await nav.getByRole("link", { name: "Next" }).click();
      const request = await hold.held;
      expect(new URL(request.url()).searchParams.get("page")).toBe("2");

      const loading = page.getByText("Loading...", { exact: true });
      await expect(loading).toBeVisible();
      // The current list stays, with the notice under it.
      await expectCards(page, pageOf(embedded, 1));
      const lastCard = await cardLinks(page).last().boundingBox();
      const notice = await loading.boundingBox();
      expect(notice!.y).toBeGreaterThan(lastCard!.y + lastCard!.height - 1);
      // Every control is disabled: no links, Previous, Next and the other numbers marked disabled.
      await expect(nav.getByRole("link")).toHaveCount(0);
      await expect(nav.getByText("Previous", { exact: true })).toHaveAttribute("aria-disabled", "true");
      await expect(nav.getByText("Next", { exact: true })).toHaveAttribute("aria-disabled", "true");
      await expect(nav.getByText("2", { exact: true })).toHaveAttribute("aria-disabled", "true");
      await expect(page).toHaveURL(`${urls.demo}/blog`);

      await hold.release();
      await expect(page).toHaveURL(`${urls.demo}/blog?page=2`);
      await expect(loading).toHaveCount(0);
      await expectCards(page, pageOf(embedded, 2));
      await expect(nav.getByRole("link", { name: "Previous" })).toHaveAttribute("href", "/blog");
    },
  );

  test(
    "going to the blog from the home page header shows Loading blogs... until the list arrives",
    { tag: "@js" },
    async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const hold = await holdRequests(page, "**/blog.data*");
      const menu = page.getByRole("button", { name: "Open menu" });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole("banner").getByRole("link", { name: "Blog", exact: true }).click();
      await hold.held;
      const loading = page.getByText("Loading blogs...", { exact: true });
      await expect(loading).toBeVisible();
      await hold.release();
      await expect(page).toHaveURL(`${urls.demo}/blog`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest Articles & Insights");
      await expect(loading).toHaveCount(0);
      await expectCards(page, pageOf(embedded, 1));
    },
  );
});

test.describe("the page parameter", () => {
  test("?page=1 and malformed pages redirect to /blog", wide, async ({ page }) => {
    const first = await page.request.get("/blog?page=1", { maxRedirects: 0 });
    expect(first.status()).toBe(301);
    expect(new URL(first.headers()["location"] ?? "", urls.demo).href).toBe(`${urls.demo}/blog`);

    for (const query of ["page=abc", "page=0", "page=-1", "page=2.5", "page=2&page=2", "page=", "page=1e1"]) {
      const response = await page.request.get(`/blog?${query}`, { maxRedirects: 0 });
      expect([301, 302, 303, 307, 308], `?${query} redirects`).toContain(response.status());
      expect(new URL(response.headers()["location"] ?? "", urls.demo).href, `?${query} → /blog`).toBe(
        `${urls.demo}/blog`,
      );
    }

    // A visitor who follows such a link lands on the first page.
    const landed = await page.goto("/blog?page=abc");
    expect(landed?.status()).toBe(200);
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expectCards(page, pageOf(embedded, 1));
  });

  test("a page after the last one answers 404 with the not-found screen", wide, async ({ page }) => {
    for (const [base, pages] of [
      [urls.demo, demoPages],
      [urls.configured, pageCount(backend)],
    ] as const) {
      const status = await page.request.get(`${base}/blog?page=${pages + 1}`, { maxRedirects: 0 });
      expect(status.status(), `${base} page ${pages + 1}`).toBe(404);
    }
    expect((await page.request.get("/blog?page=999999", { maxRedirects: 0 })).status()).toBe(404);

    const response = await page.goto(`/blog?page=${demoPages + 1}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    await expect(cardLinks(page)).toHaveCount(0);
  });
});
