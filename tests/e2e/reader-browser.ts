// A test's page as a reader's browser for the beacon (app/vitals): the page's script measures and reports
// only in a browser not driven by automation, and the server counts only one that is not headless.
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/**
 * This page as a reader's browser, not the test's headless and automated one, which the measurement
 * leaves out (navigator.webdriver) and the server does not count (HeadlessChrome in its user agent and
 * client hints): a browser's user agent and brands, for the page's own requests.
 */
export async function asBrowser(page: Page, userAgent = CHROME) {
  await page
    .context()
    .addInitScript(() => Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setUserAgentOverride", {
    userAgent,
    userAgentMetadata: {
      brands: [
        { brand: "Chromium", version: "156" },
        { brand: "Not:A-Brand", version: "8" },
      ],
      platform: "Linux",
      platformVersion: "",
      architecture: "x86",
      model: "",
      mobile: false,
    },
  });
}

/**
 * The page is hidden (`true`), as when the reader switches to another tab, or shown again. This browser
 * shows every page, so the test says so in the page; leaving the page instead would send the beacon from
 * the browser itself, with its headless user agent.
 */
export const setHidden = (page: Page, hidden = true) =>
  page.evaluate((hide) => {
    Object.defineProperty(document, "visibilityState", {
      get: () => (hide ? "hidden" : "visible"),
      configurable: true,
    });
    Object.defineProperty(document, "hidden", { get: () => hide, configurable: true });
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  }, hidden);

/** Once the page is hydrated and has fetched its measuring script. */
export async function measuring(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.waitForFunction(() =>
    performance.getEntriesByType("resource").some((entry) => entry.name.includes("/measure.client-")),
  );
}
