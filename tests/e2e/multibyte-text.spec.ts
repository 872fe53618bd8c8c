// A Vietnamese site (nearly every word has a multi-byte letter) in Chromium: the page as served and as
// parsed holds its text exactly, and with JavaScript React adopts the server's markup as it is, with no
// hydration error and no second render. Before decision 023 the server's renderer put NUL bytes in such
// pages, which the browser shows as U+FFFD in the tab title and in attributes (React then corrects the title
// once it runs: a reader without JavaScript, and every reader until then, saw it). Where a NUL falls depends
// on every byte before it, so tests/server/multibyte-text.test.ts is what sweeps for them; this checks what a
// reader meets. The site is the "vi" host of the sites process (tests/support/servers.mjs).
import { readFileSync } from "node:fs";
import { ports, siteHosts, VIETNAMESE_SITE_NAME } from "../support/servers.mjs";
import { hydrated } from "./blog-helpers";
import { expect, hasJavaScript, test } from "./fixtures";
import { readLocalSitesByName } from "./local-sites";

readLocalSitesByName();

const origin = `http://${siteHosts.vi}:${ports.sites}`;
// The site speaks Vietnamese (SITE_LANGUAGE=vi): its interface's words are those of locales/vi.json.
const vi = JSON.parse(readFileSync("locales/vi.json", "utf8")) as Record<string, string>;
const heroTitle = vi["hero.title"]!.replace("{product}", "Tịnh Độ");

const pages = [
  { path: "/", title: `${VIETNAMESE_SITE_NAME} · ${heroTitle}`, text: heroTitle },
  {
    path: "/blog/niem-phat-moi-ngay",
    title: "Niệm Phật mỗi ngày: bắt đầu từ một hơi thở",
    text: "Con đường Tịnh Độ rộng mở cho tất cả mọi người",
  },
];

type Marked = Element & { fromServer?: boolean };
type Parsed = { title: string; replacementCharacters: boolean };

for (const { path, title, text } of pages) {
  test(`${path} on a Vietnamese site reads exactly as written, and hydrates without an error or a second render @desktop`, async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      // Blocked third-party loads, and Chromium's notice that COOP needs HTTPS, are no fault of the page.
      if (
        message.type() === "error" &&
        !/^Failed to load resource|^The Cross-Origin-Opener-Policy header has been ignored/.test(message.text())
      )
        problems.push(message.text());
    });
    // The document as parsed, before any script of the page runs; and every element the server sent is
    // marked: an element React rendered again in the browser would be a new one, without the mark.
    await page.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        (window as Window & { parsed?: Parsed }).parsed = {
          title: document.title,
          replacementCharacters: document.documentElement.outerHTML.includes("\uFFFD"),
        };
        for (const element of document.querySelectorAll("*")) (element as Marked).fromServer = true;
      });
    });

    const response = await page.goto(origin + path);
    expect(((await response?.text()) ?? "").includes("\u0000"), "U+0000 in the page as served").toBe(false);
    await expect(page.getByText(text)).toBeVisible();
    await expect(
      page.getByRole("link", { name: vi["header.homeLink"]!.replace("{site}", VIETNAMESE_SITE_NAME) }),
    ).toBeVisible();
    const current = () => ({
      title: document.title,
      replacementCharacters: document.documentElement.outerHTML.includes("\uFFFD"),
    });
    const parsed = hasJavaScript(page)
      ? await page.evaluate(() => (window as Window & { parsed?: Parsed }).parsed)
      : await page.evaluate(current);
    expect(parsed, "the document as parsed").toEqual({ title, replacementCharacters: false });
    if (!hasJavaScript(page)) return;

    await hydrated(page);
    expect(await page.evaluate(current), "the document once hydrated").toEqual({ title, replacementCharacters: false });
    // The components only the browser adds (the ad script's container, the menu's button) are new; the
    // document's own elements are the server's unless React gave up on them.
    const renderedAgain = await page.evaluate(() =>
      ["html", "body", "header a[href='/']", "main", "main h1", "main p", "footer"].filter(
        (selector) => !(document.querySelector(selector) as Marked | null)?.fromServer,
      ),
    );
    expect(renderedAgain, "elements React rendered again in the browser").toEqual([]);
    expect(problems, "console errors (a hydration mismatch is one)").toEqual([]);
  });
}
