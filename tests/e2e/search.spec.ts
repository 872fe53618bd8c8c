// Search as readers use it, with JavaScript and without: the labelled search form (a plain GET form) finds
// words inside sentences on the Vietnamese, Japanese and Thai sites, marks them in the snippets, and pages
// through results; axe finds nothing on the results page in either colour scheme.
import { languageSites, ports, siteHosts } from "../support/servers.mjs";
import { closeVisits, expectNoViolations, visit } from "./axe";
import { expect, hasJavaScript, test, urls } from "./fixtures";
import { readLocalSitesByName } from "./local-sites";

readLocalSitesByName();
test.describe.configure({ timeout: 60_000 });
test.afterEach(closeVisits);

const origin = (host: string) => `http://${host}:${ports.sites}`;
const hostOf = (lang: string) => languageSites.find((site) => site.lang === lang)!.host;

const cases = [
  {
    lang: "vi",
    host: siteHosts.vi,
    form: "Tìm kiếm",
    query: "dem hoi tho",
    article: "/blog/tho-va-thien",
    mark: "Đếm",
  },
  { lang: "ja", host: hostOf("ja"), form: "検索", query: "坐蒲", article: "/blog/zazen-no-hajimekata", mark: "坐蒲" },
  {
    lang: "th",
    host: hostOf("th"),
    form: "ค้นหา",
    query: "กรรมฐาน",
    article: "/blog/anapanasati-bueang-ton",
    mark: "กรรมฐาน",
  },
];

for (const { lang, host, form, query, article, mark } of cases) {
  test(`the search form finds words inside sentences on the ${lang} site`, { tag: "@crosswise" }, async ({ page }) => {
    await page.goto(`${origin(host)}/search`);
    // React 18 can throw "Root did not complete" (#345) in a page left while it still hydrates: the reader
    // meets nothing of it, as the results page loads either way, but the page error would fail the test.
    if (hasJavaScript(page)) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
    const search = page.getByRole("search", { name: form, exact: true });
    await search.getByRole("searchbox").fill(query);
    await search.getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${encodeURIComponent(query).replaceAll("%20", "\\+")}$`));
    const results = page.getByRole("list").filter({ has: page.locator(`a[href="${article}"]`) });
    await expect(results.locator("li").first().locator("a")).toHaveAttribute("href", article);
    await expect(
      results
        .locator("li")
        .first()
        .locator("mark")
        .filter({ hasText: new RegExp(`^${mark}$`, "i") })
        .first(),
    ).toBeVisible();
  });
}

// On phones the form is in the menu.
test(
  "the header's search form leads to the results, and their pages link on",
  { tag: "@desktop" },
  async ({ page }) => {
    await page.goto(`${urls.demo}/`);
    const search = page.getByRole("banner").getByRole("search", { name: "Search the articles" });
    await search.getByRole("searchbox", { name: "Words to search for" }).fill("meditation");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=meditation$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “meditation”");
    await expect(page.getByText(/^\d+ results$/)).toBeVisible();
    await expect(page.getByRole("list", { name: "Search results" }).locator("li").first()).toContainText(/meditation/i);
    if (hasJavaScript(page)) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
  },
);

for (const colorScheme of ["light", "dark"] as const) {
  test(
    `no accessibility violations on the results page, ${colorScheme} scheme`,
    { tag: "@crosswise" },
    async ({ page, browser, viewport, isMobile, hasTouch }) => {
      const seen = await visit(
        { page, browser, contextOptions: { viewport, isMobile, hasTouch, colorScheme } },
        `${urls.demo}/search?q=zazen`,
      );
      await expect(seen.locator("mark").first()).toBeVisible();
      await expectNoViolations(seen);
    },
  );
}
