// Leaving a page, or following a link, while the framework could be asking the server about routes
// (Remix's /__manifest) logs nothing and reaches the right page (docs/decisions/034). Every /__manifest
// request is held for 2 s, so a reader who leaves right after the page came alive leaves while any such
// request is in flight. Firefox and WebKit run the same in tests/engines/route-discovery.test.ts.
import type { Page } from "@playwright/test";
import { hydrated } from "./blog-helpers";
import { expect, test, urls } from "./fixtures";

const BLOG_HEADING = "Latest Articles & Insights";
const ARTICLE = { path: "/blog/a-day-at-sesshin", heading: "A Day at Sesshin: Inside a Zen Retreat" };
/** Long enough for the page's own discovery to have started after hydration. */
const SETTLE_MS = 300;

/** Console errors and warnings of the page, from now on. */
function consoleProblems(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") seen.push(`${message.type()}: ${message.text()}`);
  });
  return seen;
}

async function holdRouteDiscovery(page: Page) {
  await page.route(/\/__manifest\?/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue().catch(() => undefined); // the page may be gone by then
  });
}

async function openLive(page: Page, path: string) {
  await page.goto(`${urls.demo}${path}`);
  await hydrated(page);
  await page.waitForTimeout(SETTLE_MS);
}

test.describe("route discovery", { tag: ["@js", "@desktop"] }, () => {
  test("a full page load to another page just after the page came alive logs nothing", async ({ page }) => {
    await holdRouteDiscovery(page);
    const problems = consoleProblems(page);
    await openLive(page, "/");
    await page.goto(`${urls.demo}/blog`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(BLOG_HEADING);
    await hydrated(page);
    expect(problems).toEqual([]);
  });

  test("a reload just after the page came alive logs nothing", async ({ page }) => {
    await holdRouteDiscovery(page);
    const problems = consoleProblems(page);
    await openLive(page, ARTICLE.path);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(ARTICLE.heading);
    await hydrated(page);
    expect(problems).toEqual([]);
  });

  test("a link followed just after the page came alive reaches its page in the same document and logs nothing", async ({
    page,
  }) => {
    await holdRouteDiscovery(page);
    const problems = consoleProblems(page);
    await page.goto(`${urls.demo}/`);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog", exact: true }).click();
    await expect(page).toHaveURL(`${urls.demo}/blog`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(BLOG_HEADING);
    await page.locator(`main a[href="${ARTICLE.path}"]`).click();
    await expect(page).toHaveURL(`${urls.demo}${ARTICLE.path}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(ARTICLE.heading);
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
      "no full page load",
    ).toBe(true);
    expect(problems).toEqual([]);
  });
});
