// The not-found screen: any unknown URL, with and without JavaScript, at both widths.
import type { ConsoleMessage, Page } from "@playwright/test";
import { thirdParty } from "../support/servers.mjs";
import { expect, hasJavaScript, test, urls } from "./fixtures";
import { expectClearOfHeader } from "./scroll-checks";

const isPhone = () => test.info().project.name.endsWith("-375");

/** Unknown URLs, and the path the browser asks for (what the console message must name). */
// /nope at both widths (@crosswise: with JavaScript at 1280 px, without at 375 px); the odd addresses only change what the server is asked, so one width is enough.
const unknownUrls = [
  { url: "/nope", path: "/nope", tag: ["@crosswise"] },
  { url: "/blog/a/b/c", path: "/blog/a/b/c", tag: ["@desktop"] },
  { url: "/%E2%9C%93", path: "/%E2%9C%93", tag: ["@desktop"] },
  { url: "/a?b=<script>alert(1)</script>", path: "/a", tag: ["@desktop"] },
];

function collectConsole(page: Page) {
  const messages: ConsoleMessage[] = [];
  page.on("console", (message) => messages.push(message));
  return messages;
}

for (const { url, path, tag } of unknownUrls) {
  test(`${url} answers 404 with the not-found screen`, { tag }, async ({ page }) => {
    const messages = collectConsole(page);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    const response = await page.goto(`${urls.configured}${url}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page not found");
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    // Header, footer and an ad row, as on every page.
    await expect(page.getByRole("banner").getByRole("link", { name: "Chan Practice Center, home" })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByText("© 2024 Chan Practice Center")).toBeVisible();
    await expect(page.locator("[data-ad-row]").getByText("Advertisement", { exact: true }).first()).toBeVisible();

    if (hasJavaScript(page)) {
      // The console names the path that was asked for.
      await expect
        .poll(() =>
          messages
            .filter((message) => message.type() === "error")
            .map((message) => message.text())
            .find(
              (text) => text.includes("404") && text.split(/\s+/).some((word) => word.replace(/^"|"$/g, "") === path),
            ),
        )
        .toBeTruthy();
    }
    expect(dialogs, "nothing from the URL ran in the page").toEqual([]);
  });
}

test("'Return to Home' leads to the home page", { tag: "@desktop" }, async ({ page }) => {
  await page.goto(`${urls.configured}/nope`);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(`${urls.configured}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover the Ancient Wisdom of Chan Buddhism");
});

test(
  "the ad row shows one banner on phones and three on wide screens, and gets the ad script with JavaScript",
  { tag: "@crosswise" },
  async ({ page, thirdPartyRequests }) => {
    await page.goto(`${urls.configured}/nope`);
    const row = page.locator("[data-ad-row]");
    await expect(row).toHaveCount(1);
    const slots = row.locator("[id^='ad-']").filter({ visible: true });
    await expect(slots).toHaveCount(isPhone() ? 1 : 3);
    for (const slot of await slots.all()) {
      await expect(slot).toHaveAttribute("id", /^ad-[a-z-]+-\d$/);
      await expect(slot).toHaveCSS("min-height", "250px");
    }
    if (hasJavaScript(page)) {
      const container = row.locator(`:has(> script[src="${thirdParty.AD_SCRIPT_URL}"])`);
      await expect(container).toHaveCount(1);
      await expect(container).toHaveCSS("min-height", "250px");
      await expect.poll(() => thirdPartyRequests).toContain(thirdParty.AD_SCRIPT_URL);
    }
  },
);

test("the header's section links lead back to the home page sections", async ({ page }) => {
  await page.goto(`${urls.configured}/blog/a/b/c`);
  if (hasJavaScript(page)) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
  if (isPhone()) {
    await page.getByLabel("Open menu", { exact: true }).click();
  }
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [name, href] of [
    ["Home", "/"],
    ["About Chan", "/#about"],
    ["Resources", "/#resources"],
    ["Blog", "/blog"],
    ["Contact", "/#contact"],
    ["Donate", "#donate"],
  ] as const) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick Links" });
  for (const [name, href] of [
    ["Home", "/"],
    ["About", "/#about"],
    ["Resources", "/#resources"],
    ["Contact", "/#contact"],
  ] as const) {
    await expect(quickLinks.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }

  await nav.getByRole("link", { name: "Resources", exact: true }).click();
  await expect(page).toHaveURL(`${urls.configured}/#resources`);
  await expectClearOfHeader(
    page,
    page.getByRole("heading", { name: "Resources for your practice" }),
    "header link Resources",
  );
});
