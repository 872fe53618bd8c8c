// Every site in its own language (SITE_LANGUAGE), read as a reader would: with JavaScript (server pages, then
// pages the browser renders on navigation) and without. The Vietnamese and Japanese sites show no string of
// the English interface, anywhere in the document (hidden dialog and menu included) or its attributes, and
// date their articles in their language; axe finds nothing on them. Screenshots at 375 px of each language's
// home page and an article go to tests/.artifacts/screenshots/languages/ for a look by eye.
import { mkdirSync, readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { languageSites, ports, siteHosts, VIETNAMESE_SITE_NAME } from "../support/servers.mjs";
import { expectNoViolations } from "./axe";
import { hydrated } from "./blog-helpers";
import { expect, hasJavaScript, test } from "./fixtures";
import { readLocalSitesByName } from "./local-sites";

readLocalSitesByName();
test.describe.configure({ timeout: 60_000 });

type Translations = Record<string, string | Record<string, string>>;
const translationsOf = (lang: string) => JSON.parse(readFileSync(`locales/${lang}.json`, "utf8")) as Translations;
const english = translationsOf("en");

const origin = (host: string) => `http://${host}:${ports.sites}`;
const sites = [
  {
    lang: "vi",
    host: siteHosts.vi,
    product: "Tịnh Độ",
    name: VIETNAMESE_SITE_NAME,
    article: "niem-phat-moi-ngay",
    published: "14 tháng 9, 2024",
  },
  ...languageSites.map((site) => ({ ...site, published: site.lang === "ja" ? "2024年5月12日" : undefined })),
];
const strict = sites.filter((site) => site.lang === "vi" || site.lang === "ja");

/**
 * The words of the English interface that this site's translations say otherwise, as a page would show them:
 * the site's names filled in, and around the other placeholders the fixed words ("Published on").
 */
function englishWords({ lang, product, name }: (typeof sites)[number]): string[] {
  const own = translationsOf(lang);
  const words = new Set<string>();
  for (const [key, message] of Object.entries(english)) {
    if (key === "language.name" || JSON.stringify(own[key]) === JSON.stringify(message)) continue;
    for (const text of typeof message === "string" ? [message] : Object.values(message)) {
      const filled = text.replaceAll("{product}", product).replaceAll("{site}", name);
      for (const fragment of filled.split(/\{\w+\}/)) if (fragment.trim().length >= 4) words.add(fragment.trim());
    }
  }
  return [...words];
}

/** Every word a reader or their assistive technology meets: text (scripts aside), labels, alt and title text, the head's titles and descriptions. */
function readerText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [document.title];
    // No filter callback: a page without JavaScript cannot run one.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement?.closest("script, style, template")) parts.push(node.textContent ?? "");
    }
    for (const element of document.querySelectorAll("[aria-label], [alt], [title], meta[content], link[title]")) {
      for (const name of ["aria-label", "alt", "title", "content"]) {
        if (element.matches("meta[property='og:locale'], meta[name='viewport'], meta[name='theme-color']")) continue;
        const value = element.getAttribute(name);
        if (value) parts.push(value);
      }
    }
    return parts.join("\n");
  });
}

async function expectNoEnglish(page: Page, site: (typeof sites)[number], where: string) {
  const text = await readerText(page);
  const found = englishWords(site).filter((words) => text.includes(words));
  expect(found, `English interface words on ${where}`).toEqual([]);
  await expect(page.locator("html")).toHaveAttribute("lang", site.lang);
}

for (const site of strict) {
  test(`the ${site.lang} site shows no English interface string, and dates its articles in ${site.lang} @crosswise`, async ({
    page,
  }) => {
    const own = translationsOf(site.lang);
    for (const path of ["/", "/blog", `/blog/${site.article}`, "/no/such/page"]) {
      await page.goto(origin(site.host) + path);
      if (hasJavaScript(page)) await hydrated(page);
      await expectNoEnglish(page, site, path);
    }
    await page.goto(`${origin(site.host)}/blog/${site.article}`);
    await expect(page.locator("article header time")).toHaveText(site.published!);
    if (!hasJavaScript(page)) return;

    // Pages the browser renders itself, from the root's translations: the blog list, then an article, by their links.
    await page.goto(origin(site.host));
    await hydrated(page);
    await page
      .getByRole("navigation", { name: own["nav.label"] as string })
      .getByRole("link", { name: own["nav.blog"] as string })
      .click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(own["blog.title"] as string);
    await expectNoEnglish(page, site, "/blog after a client navigation");
    await page.locator(`a[href="/blog/${site.article}"]`).first().click();
    await expect(page.locator("article header time")).toHaveText(site.published!);
    await expectNoEnglish(page, site, "an article after a client navigation");
  });

  // With JavaScript, at both widths (the English pages are also checked without it: tests/e2e/a11y.spec.ts).
  for (const path of ["/", `/blog/${site.article}`]) {
    test(`no accessibility violations on ${path} of the ${site.lang} site @js`, async ({ page }) => {
      await page.goto(origin(site.host) + path);
      await hydrated(page);
      await expect(page.locator("html")).toHaveAttribute("lang", site.lang);
      await expectNoViolations(page);
    });
  }
}

const screenshots = "tests/.artifacts/screenshots/languages";
const englishSite = { lang: "en", host: siteHosts.local, article: "reading-the-dhammapada-slowly" };

test("each language's home page and an article, at 375 px, for a look by eye @js @mobile", async ({ page }) => {
  test.setTimeout(120_000);
  mkdirSync(screenshots, { recursive: true });
  for (const site of [englishSite, ...sites]) {
    for (const [name, path] of [
      ["home", "/"],
      ["article", `/blog/${site.article}`],
    ]) {
      await page.goto(origin(site.host) + path);
      await hydrated(page);
      await expect(page.locator("html")).toHaveAttribute("lang", site.lang);
      await page.screenshot({ path: `${screenshots}/${site.lang}-${name}.png`, fullPage: true });
    }
  }
});
