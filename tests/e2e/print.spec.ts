// An article prints as the article: its title, date, picture, body, keywords and address, in black on white
// even for a reader in the dark scheme; never the header, menu, footer, ads, pop-up, notifications, video,
// "read next", skip link or back links. Checked with JavaScript at 1280 px, with the donation dialog open,
// and without at 375 px, with its :target panel shown: what a printout leaves out does not depend on
// either. Each run also prints a PDF into tests/.artifacts/print/ for a look by eye.
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { embedded, hydrated, pick, videoId } from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

const PDF_DIR = "tests/.artifacts/print";

const article = pick(embedded, "with a picture, a video and keywords", (item) =>
  Boolean(item.pinterestImageLink && videoId(item.youtubeShortsUrl) && item.shortTailKeywords),
);

/** The colours of the body text and of the page, as CSS gives them. */
function inkAndPaper(page: Page) {
  return page.evaluate(() => ({
    ink: getComputedStyle(document.querySelector(".article-body p")!).color,
    title: getComputedStyle(document.querySelector("h1")!).color,
    paper: getComputedStyle(document.documentElement).backgroundColor,
  }));
}

test(
  "an article prints as the article, with its address, and nothing of the screen around it",
  { tag: "@crosswise" },
  async ({ page }, testInfo) => {
    const url = `${urls.demo}/blog/${article.slug}`;
    await page.emulateMedia({ colorScheme: "dark" });
    if (hasJavaScript(page)) {
      await page.goto(url);
      await hydrated(page);
      // The modal donation dialog, open as the reader prints.
      await page.evaluate(() => (document.getElementById("donate") as HTMLDialogElement).showModal());
    } else {
      // The donation panel without JavaScript: the URL's #donate target.
      await page.goto(`${url}#donate`);
    }
    await expect(page.getByRole("dialog")).toBeVisible();
    // The "read next" section of another change hides by its attribute: stand one in for it.
    await page.locator("article").evaluate((element) => {
      element.insertAdjacentHTML(
        "beforeend",
        '<section data-read-next=""><h2>Read next</h2><p>Another article</p></section>',
      );
    });
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(canonical).toBe(url);
    const address = page.getByText(canonical!, { exact: true });
    await expect(address, "the address is for paper only").toBeHidden();

    await page.emulateMedia({ media: "print", colorScheme: "dark" });

    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(article.metaTitle);
    await expect(main.locator("time")).toBeVisible();
    await expect(main.getByRole("img", { name: article.metaTitle })).toBeVisible();
    await expect(main.locator(".article-body")).toBeVisible();
    await expect(main.getByRole("heading", { name: "Tags & Keywords" })).toBeVisible();
    await expect(address).toBeVisible();

    const leftOut = {
      "header and menu": page.locator(".site-header"),
      footer: page.locator("footer"),
      "donation pop-up": page.locator("#donate"),
      notifications: page.getByLabel("Notifications"),
      "skip link": page.locator('a[href="#main"]'),
      "back links": main.locator('a[href="/blog"]'),
      video: page.locator('section[aria-labelledby="video-title"], iframe'),
      "Pinterest link": main.getByText("View on Pinterest"),
      "read next": page.locator("[data-read-next]"),
    };
    for (const [what, locator] of Object.entries(leftOut)) {
      // On the page, so that hidden means left out by the printout.
      expect(await locator.count(), `${what} is on the page`).toBeGreaterThan(0);
      for (const element of await locator.all()) await expect(element, `${what} is not printed`).toBeHidden();
    }

    // Black on white, though the reader's screen is dark.
    expect(await inkAndPaper(page)).toEqual({
      ink: "rgb(0, 0, 0)",
      title: "rgb(0, 0, 0)",
      paper: "rgb(255, 255, 255)",
    });

    mkdirSync(PDF_DIR, { recursive: true });
    const pdf = await page.pdf({
      path: `${PDF_DIR}/article-${testInfo.project.name}.pdf`,
      format: "A4",
      printBackground: true,
    });
    expect(pdf.byteLength).toBeGreaterThan(10_000);
  },
);
