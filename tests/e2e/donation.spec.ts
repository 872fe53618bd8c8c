// The donation pop-up: a modal dialog 30 s after the home page loads (with JavaScript), and a panel shown by
// the #donate fragment without it. The configured site names itself and has a DONATION_URL.
import type { Locator, Page } from "@playwright/test";
import { thirdParty } from "../support/servers.mjs";
import { expect, test, urls } from "./fixtures";

const DELAY_MS = 30_000;
const start = Date.UTC(2024, 5, 1, 9, 0, 0);
const isPhone = () => test.info().project.name.endsWith("-375");

const donation = (page: Page) => page.getByRole("dialog", { name: "Support Chan Practice Center" });

async function waitForHydration(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
}

/** The header's Donate link, reached through the menu on phones. */
async function headerDonateLink(page: Page): Promise<Locator> {
  if (isPhone()) {
    await page.getByLabel("Open menu", { exact: true }).click();
  }
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true });
}

/** "Donate Now" navigates this tab (not a frame or a pop-up) to the configured donation page. */
async function expectDonateNowLeavesForDonationSite(page: Page, thirdPartyRequests: string[]) {
  const navigation = page.waitForRequest((request) => request.url() === thirdParty.DONATION_URL);
  await donation(page).getByRole("link", { name: "Donate Now" }).click();
  const request = await navigation;
  expect(request.isNavigationRequest()).toBe(true);
  expect(request.frame()).toBe(page.mainFrame());
  expect(thirdPartyRequests).toContain(thirdParty.DONATION_URL);
}

async function expectFocusInside(dialog: Locator) {
  await expect
    .poll(() => dialog.evaluate((element) => element.contains(document.activeElement)), {
      message: "focus inside the dialog",
    })
    .toBe(true);
}

/** With JavaScript "Maybe Later" is a button; without, a link that clears the #donate fragment. */
async function expectContent(dialog: Locator, javaScript: boolean) {
  await expect(dialog.getByRole("heading", { name: "Support Chan Practice Center" })).toBeVisible();
  await expect(dialog.getByText(/contribution helps the Buddhist community/)).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Donate Now" })).toHaveAttribute("href", thirdParty.DONATION_URL);
  await expect(dialog.getByRole(javaScript ? "button" : "link", { name: "Maybe Later" })).toBeVisible();
}

test.describe("with JavaScript", { tag: "@js" }, () => {
  test("opens 30 seconds after the home page loads, as a modal dialog that takes focus and gives it back", async ({
    page,
  }) => {
    // Time stands still until the test moves it, so "29 s after load" is exact however slow the machine is.
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 1_000);
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    const learnMore = page.getByRole("link", { name: "Learn More" });
    await learnMore.focus();

    await page.clock.fastForward(DELAY_MS - 1_000);
    await expect(donation(page), "not open after 29 s").toBeHidden();
    await page.clock.fastForward(1_000);
    const dialog = donation(page);
    await expect(dialog, "open after 30 s").toBeVisible();
    await expectContent(dialog, true);
    await expect(dialog).toHaveAccessibleDescription(/helps the Buddhist community/);
    // Modal: the page behind it cannot be reached.
    expect(await dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
    await expectFocusInside(dialog);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(learnMore, "focus back where it was").toBeFocused();
  });

  test("'Maybe Later' and a click on the backdrop close it", async ({ page }) => {
    await page.clock.install();
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    await page.clock.fastForward(DELAY_MS);
    await expect(donation(page)).toBeVisible();
    await donation(page).getByRole("button", { name: "Maybe Later" }).click();
    await expect(donation(page)).toBeHidden();

    await (await headerDonateLink(page)).click();
    await expect(donation(page)).toBeVisible();
    // A click on the dimmed area around the panel.
    await page.mouse.click(5, 5);
    await expect(donation(page)).toBeHidden();
    // A click on the panel itself does not close it.
    await (await headerDonateLink(page)).click();
    await donation(page).getByRole("heading", { name: "Support Chan Practice Center" }).click();
    await expect(donation(page)).toBeVisible();
  });

  test("'Donate Now' takes the browser to the configured donation site", async ({ page, thirdPartyRequests }) => {
    await page.clock.install();
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    await page.clock.fastForward(DELAY_MS);
    await expectDonateNowLeavesForDonationSite(page, thirdPartyRequests);
  });

  test("the header's Donate link opens the same dialog, and focus returns to the header when it closes", async ({
    page,
  }) => {
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    const link = await headerDonateLink(page);
    await link.click();
    const dialog = donation(page);
    await expect(dialog).toBeVisible();
    await expectContent(dialog, true);
    await expectFocusInside(dialog);
    await expect(page, "the page stays where it was").toHaveURL(`${urls.configured}/`);
    if (isPhone()) await expect(page.getByRole("navigation", { name: "Main" }), "the menu closed").toBeHidden();

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // The link that opened it, or on phones the menu toggle it was chosen from (the menu has closed).
    const opener = isPhone() ? page.getByRole("button", { name: "Open menu" }) : link;
    await expect(opener, "focus returns to the header control the visitor used").toBeFocused();
  });

  test("only the home page opens it by itself; elsewhere the header link still does", async ({ page }) => {
    await page.clock.install();
    await page.goto(`${urls.configured}/no-such-page`);
    await waitForHydration(page);
    await page.clock.fastForward(DELAY_MS + 5_000);
    await expect(donation(page)).toBeHidden();
    await (await headerDonateLink(page)).click();
    await expect(donation(page)).toBeVisible();
    await donation(page).getByRole("button", { name: "Maybe Later" }).click();
    await expect(donation(page)).toBeHidden();
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  });

  test("a link to /#donate opens the dialog on arrival", async ({ page }) => {
    await page.goto(`${urls.configured}/#donate`);
    // Shown at once (the panel readers without JavaScript get), and modal once the page is live.
    await expect(donation(page)).toBeVisible();
    await waitForHydration(page);
    await expect(donation(page)).toBeVisible();
    expect(await donation(page).evaluate((element) => element.matches(":modal"))).toBe(true);
    await donation(page).getByRole("button", { name: "Maybe Later" }).click();
    await expect(donation(page)).toBeHidden();
  });
});

test.describe("without JavaScript", { tag: "@nojs" }, () => {
  test("/#donate shows the panel, and 'Maybe Later' or the backdrop hides it", async ({ page }) => {
    await page.goto(`${urls.configured}/`);
    await expect(donation(page)).toBeHidden();

    await page.goto(`${urls.configured}/#donate`);
    const panel = donation(page);
    await expect(panel).toBeVisible();
    await expectContent(panel, false);
    // The panel covers the page.
    const box = await panel.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });

    await panel.getByRole("link", { name: "Maybe Later" }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    // The header's Donate link shows it again; a click on the dimmed area around it hides it.
    await (await headerDonateLink(page)).click();
    await expect(page).toHaveURL(`${urls.configured}/#donate`);
    await expect(panel).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(panel).toBeHidden();
  });

  test("'Donate Now' takes the browser to the configured donation site", async ({ page, thirdPartyRequests }) => {
    await page.goto(`${urls.configured}/#donate`);
    await expectDonateNowLeavesForDonationSite(page, thirdPartyRequests);
  });
});
