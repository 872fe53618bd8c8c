import { expect, test } from "./fixtures";

test("home page renders its hero heading", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover the Ancient Wisdom of Zen Buddhism");
});
