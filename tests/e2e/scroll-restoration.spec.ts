// A reload puts the reader back where they were, from the inline script in the HTML, before the page's
// scripts run; a first visit does not wait on storage at all (app/document/scroll-restoration.ts).
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

test("the router saves the reader's place where the inline script looks for it @js @desktop", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Latest Articles & Insights" })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(() => scrollY(page)).toBe(400);
  await page.reload();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect.poll(() => scrollY(page)).toBe(400);
  const saved = await page.evaluate(() => JSON.parse(sessionStorage.getItem("positions") ?? "{}")[history.state?.key]);
  expect(saved).toBe(400);
});

test("before any script of the page runs: no storage read on a first visit, the saved place on a reload @js @desktop", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const reads: string[] = [];
    (window as unknown as { storageReads: string[] }).storageReads = reads;
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = function (key: string) {
      reads.push(key);
      return getItem.call(this, key);
    };
  });
  await page.route(/\/build\/.*\.js$/, (route) => route.abort());
  const storageReads = () => page.evaluate(() => (window as unknown as { storageReads: string[] }).storageReads);

  await page.goto("/blog", { waitUntil: "load" });
  expect(await storageReads(), "a new history entry has no saved place to look up").toEqual([]);

  // An entry the router has keyed, with a place saved for it (what a reload after reading looks like):
  // halfway down, well inside what the page can scroll. The browser's own restoration is off, as the
  // router leaves it while the page is open, so only the inline script can scroll.
  const saved = await page.evaluate(() => {
    const halfway = Math.round((document.documentElement.scrollHeight - window.innerHeight) / 2);
    history.replaceState({ key: "entry-1" }, "");
    history.scrollRestoration = "manual";
    sessionStorage.setItem("positions", JSON.stringify({ "entry-1": halfway }));
    window.scrollTo(0, 0);
    return halfway;
  });
  expect(saved, "the blog page is long enough to scroll").toBeGreaterThan(200);
  await page.reload({ waitUntil: "load" });
  expect(await storageReads()).toEqual(["positions"]);
  expect(await scrollY(page), "the browser alone would have kept the top of the page").toBe(saved);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
});
