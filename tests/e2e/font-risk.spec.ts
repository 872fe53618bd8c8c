// No character in the pages as rendered needs an emoji font (tests/support/font-risk.mjs): every page of the
// sitemap, every embedded article, the 404 page and the donation pop-up; the text, the title, image
// descriptions and CSS-generated content. A reader whose emoji font is older than the character would see
// a box; a mark the design depends on is drawn instead (app/components/LotusMark.tsx).
import type { Page } from "@playwright/test";
import { fontRisks } from "../support/font-risk.mjs";
import { expect, test, urls } from "./fixtures";

/** Everything on the page a reader can see or hear as text, hidden parts (the closed dialog, the menu) included. */
function renderedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const generated = [...document.querySelectorAll("*")].flatMap((element) =>
      ["::before", "::after"]
        .map((pseudo) => getComputedStyle(element, pseudo).content)
        .filter((content) => content && content !== "none" && content !== "normal"),
    );
    const labels = [...document.querySelectorAll("[alt], [aria-label], [title]")].flatMap((element) =>
      ["alt", "aria-label", "title"].map((name) => element.getAttribute(name) ?? ""),
    );
    return [document.title, document.body.textContent ?? "", ...labels, ...generated].join("\n");
  });
}

test("no page shows a character that needs an emoji font", { tag: ["@nojs", "@desktop"] }, async ({ page }) => {
  test.setTimeout(90_000);
  const sitemap = await (await page.request.get(`${urls.demo}/sitemap-pages.xml`)).text();
  const pages = [...sitemap.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((match) =>
    match[1]!.replace(/&amp;/g, "&"),
  );
  const articles = new Set<string>();
  for (const path of pages.filter((address) => address.startsWith("/blog"))) {
    await page.goto(`${urls.demo}${path}`);
    for (const href of await page
      .locator('main a[href^="/blog/"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")!))) {
      if (!href.endsWith(".xml")) articles.add(href);
    }
  }
  expect(articles.size, "the embedded articles").toBeGreaterThan(10);

  const found: string[] = [];
  for (const url of [...pages, ...articles, "/no-such-page"]
    .map((path) => `${urls.demo}${path}`)
    .concat(`${urls.configured}/#donate`)) {
    await page.goto(url);
    found.push(...fontRisks(await renderedText(page)).map((risk) => `${url}: ${risk}`));
  }
  expect(found).toEqual([]);
});
