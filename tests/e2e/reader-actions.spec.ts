// What readers do, counted from a real browser (app/beacon/measure.client.ts, docs/decisions/052): reading
// an article to its end, the time spent reading, the donation pop-up's buttons, and, back on the page after
// its report went, what followed; without JavaScript, the donation panel. Read from the site's counts
// after it stops. Starts its own site with a catalogue folder of its own.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { startSite } from "../support/site-process.mjs";
import { expect, test } from "./fixtures";
import { asBrowser, measuring, setHidden } from "./reader-browser";

const SLUG = "how-to-start-zazen-at-home";
const DONATION_URL = "https://donate.example.org/give";
const dir = mkdtempSync(path.join(tmpdir(), "reader-actions-"));
let site: Awaited<ReturnType<typeof startSite>>;
/** The article is counted as itself once the catalogue has it (its first sync, at start): awaited before the first report. */
let catalogued: Promise<unknown>;

test.beforeAll(async () => {
  site = await startSite({ CATALOGUE_DIR: dir, DONATION_URL, PAGE_CACHE_SECONDS: "0" });
  catalogued = expect
    .poll(async () => (await (await fetch(`${site.url}/search?q=zazen`)).text()).includes(`/blog/${SLUG}`))
    .toBe(true);
});

test.afterAll(async () => {
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The site's counts of today, by kind (and key, for the keyed kinds), for the article or the whole site. */
function counts() {
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite"))!;
  const db = new Database(path.join(dir, file), { readonly: true });
  const rows = db.prepare("SELECT kind, page, key, n FROM counts").all() as {
    kind: string;
    page: string;
    key: string;
    n: number;
  }[];
  db.close();
  const found: Record<string, number> = {};
  for (const { kind, page, key, n } of rows) {
    if (page === `/blog/${SLUG}` || (page === "" && kind !== "views" && kind !== "visitors" && kind !== "referrer"))
      found[key ? `${kind} ${key}` : kind] = n;
  }
  return found;
}

async function openDonation(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
}

test("an article read to its end, the time read and the donation pop-up's buttons reach the counts, and the panel without JavaScript @js @desktop", async ({
  browser,
  page,
}) => {
  await asBrowser(page);
  await page.goto(`${site.url}/blog/${SLUG}`);
  await measuring(page);
  // The reader reads down to the end: the time since the page was shown counts, once they scroll.
  await page.waitForTimeout(600);
  await page.mouse.wheel(0, 500);
  await page.locator(".article-body > :last-child").scrollIntoViewIfNeeded();

  const dialog = page.getByRole("dialog");
  await openDonation(page);
  await dialog.getByRole("button", { name: "Maybe Later" }).click();
  await expect(dialog).toBeHidden();
  await openDonation(page);
  // The dimmed backdrop around the panel.
  await dialog.click({ position: { x: 5, y: 5 } });
  await expect(dialog).toBeHidden();
  await openDonation(page);
  // "Donate Now" leads to another host, which this test does not follow.
  await page.evaluate(() =>
    document.addEventListener(
      "click",
      (event) => (event.target as Element).closest("[data-count=donate_now]") && event.preventDefault(),
      true,
    ),
  );
  await dialog.getByRole("link", { name: "Donate Now" }).click();
  await catalogued;
  await setHidden(page);

  // Back on the page after its report went: what follows is no new view.
  await setHidden(page, false);
  await openDonation(page);
  await dialog.getByRole("button", { name: "Maybe Later" }).click();
  const continuation = page.waitForRequest(
    (request) => request.url().endsWith("/__beacon") && request.postData()?.includes('"c":1') === true,
  );
  await setHidden(page);
  await continuation;

  // Without JavaScript: the donation panel, from the header's link.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    const reader = await noScript.newPage();
    await asBrowser(reader);
    // Until the stylesheet has loaded, the phone menu's Donate link is not yet hidden and the header has two:
    // a reader sees nothing before it (it blocks the first paint), so the test waits for the page's load too.
    await reader.goto(`${site.url}/blog/${SLUG}`);
    const panel = reader.waitForResponse((response) => response.url().endsWith("/__beacon?a=donate_panel"));
    await reader.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true }).click();
    await expect(reader.locator("#donate")).toBeVisible();
    expect((await panel).status()).toBe(204);
  } finally {
    await noScript.close();
  }

  // Written at the stop: a view with JavaScript and one without, and what the readers did.
  await site.stop();
  const found = counts();
  expect(found).toMatchObject({
    views: 2,
    read_end: 1,
    donate_shown: 4,
    donate_later: 2,
    donate_backdrop: 1,
    donate_now: 1,
    donate_panel: 1,
    [`outbound donate.example.org`]: 1,
  });
  expect(found.engaged_seconds).toBeGreaterThanOrEqual(1);
});
