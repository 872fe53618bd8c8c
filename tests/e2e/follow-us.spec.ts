// The footer's Follow Us block of a site readers can follow from the social web (FEDIVERSE=on, with the
// community's own channels in FOLLOW_LINKS): the handle in a box any reader can select and copy from, with
// or without JavaScript, the channels and the feed. The demo's empty block is checked in home.spec.ts.
import { startSite } from "../support/site-process.mjs";
import { expect, test } from "./fixtures";

let site: Awaited<ReturnType<typeof startSite>>;
const HANDLE = "@zen@zen.example.test";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  site = await startSite({
    FEDIVERSE: "on",
    SITE_URL: "https://zen.example.test",
    FOLLOW_LINKS: "Our Mastodon|https://social.example.test/@zen,Our videos|https://video.example.test/zen",
  });
});

test.afterAll(async () => {
  await site?.stop();
});

test("names the site's handle in a box a reader can select and copy, with its channels and the feed @crosswise", async ({
  page,
}) => {
  await page.goto(`${site.url}/`);
  const block = page.getByTestId("follow-us");
  const box = block.getByRole("textbox", { name: "Address to follow" });
  await expect(box).toHaveValue(HANDLE);
  await expect(box).toHaveAttribute("readonly", "");
  await expect(block.getByText("Follow us from Mastodon or another app of the social web:")).toBeVisible();
  await expect(block.getByRole("link", { name: "Our Mastodon" })).toHaveAttribute(
    "href",
    "https://social.example.test/@zen",
  );
  await expect(block.getByRole("link", { name: "Our Mastodon" })).toHaveAttribute("rel", /\bme\b/);
  await expect(block.getByRole("link", { name: "Our videos" })).toBeVisible();
  await expect(block.getByRole("link", { name: "Blog articles (RSS)" })).toHaveAttribute("href", "/blog/rss.xml");
  // Selecting the box's text is the way to copy it: the whole handle is there.
  await box.selectText();
  expect(
    await box.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart!, input.selectionEnd!)),
  ).toBe(HANDLE);
});

test("adds no script and no button: the box is the way to copy, with JavaScript or without @crosswise", async ({
  page,
}) => {
  await page.goto(`${site.url}/`);
  const block = page.getByTestId("follow-us");
  await expect(block.getByRole("textbox", { name: "Address to follow" })).toHaveValue(HANDLE);
  await expect(block.getByRole("button")).toHaveCount(0);
  await expect(block.locator("script")).toHaveCount(0);
});
