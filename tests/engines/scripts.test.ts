// The nine languages of issue 42 in Chromium, Firefox and WebKit at 375 px (docs/decisions/048): the home
// page, an article whose title, heading and first paragraph are long runs without a space, and the search
// results that list it. Nothing sticks out of the column (the page never scrolls sideways), no word of
// English or Latin-letter fallback (an era "BE", a list's "and") is left, the languages whose digits are their
// own show no ASCII digit, the page hydrates without a console error, and a page loads no font but its own
// script's, from the site's own built assets; in Chromium and Firefox the machine's fonts for these scripts
// are hidden, so the site's font must come (WebKit sees them, and must load none it does not need). Chromium is here, not in tests/e2e, so that one sites
// process serves the nine sites to the three engines.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { engineNames, launch, type EngineName } from "./support/engines";
import { startHookProxy } from "./support/hook-proxy.mjs";
import { isHydrated, withoutNotFoundNotice } from "./support/page-checks";
import {
  launchWithoutScriptFonts,
  LONG_ARTICLE,
  scriptSites,
  searchWord,
  startScriptSites,
} from "./support/script-sites";

/** The self-hosted font a page in each language may load (app/tailwind.css): none for the others. */
const ownFont: Record<string, string | undefined> = {
  my: "Site Myanmar",
  si: "Site Sinhala",
  km: "Site Khmer",
  lo: "Site Lao",
  bo: "Site Tibetan",
  dz: "Site Tibetan",
};
/** Languages whose default digits are not ASCII (decision 44). */
const ownDigits = new Set(["my", "dz", "ne"]);

/**
 * What a reader meets on the page, checked in the page: elements past the column's right edge, runs of Latin
XX, text left drawn in boxes, the fonts loaded and the html lang.
 */
const inspect = `(() => {
  const width = document.documentElement.clientWidth;
  const outside = [];
  if (document.documentElement.scrollWidth > width) outside.push("the page is " + document.documentElement.scrollWidth + " px wide");
  for (const element of document.querySelectorAll("main h1, main h2, main h3, main p, main a, main li, main time, header a, footer p")) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && (box.left < -1 || box.right > width + 1)) outside.push(element.tagName + " " + Math.round(box.left) + "–" + Math.round(box.right) + ": " + element.textContent.trim().slice(0, 30));
  }
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A noscript's content is text to a browser that runs scripts, and shown to nobody (the view image of app/entry.server.tsx).
    if (!node.parentElement.closest("script, style, template, noscript")) parts.push(node.textContent);
  }
  for (const element of document.querySelectorAll("[aria-label], [alt], [title], [placeholder]")) {
    for (const name of ["aria-label", "alt", "title", "placeholder"]) parts.push(element.getAttribute(name) || "");
  }
  for (const meta of document.querySelectorAll("meta[name=description], meta[property$=':title'], meta[property$=':description'], meta[property='og:site_name'], meta[name^='twitter:title'], meta[name^='twitter:description']")) parts.push(meta.content);
  const text = parts.join("\\n").replace(/https?:\\/\\/\\S+|\\b(RSS|Pinterest|YouTube|Shorts?|Access to Insight|BuddhaNet)\\b/g, "");
  // Text of the script drawn differently from a fresh copy of it laid out now, when every font is in: an
  // element left with missing-glyph boxes from before the site's font came (docs/decisions/056). Elements of
  // text alone, on one line both times, so that neither wrapping nor inner boxes count.
  function drawnApart() {
    const script = /[\u1000-\u109F\u0D80-\u0DFF\u1780-\u17FF\u0E80-\u0EFF\u0F00-\u0FFF]/;
    const line = (element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const rects = [...range.getClientRects()];
      return rects.length === 1 ? rects[0].width : undefined;
    };
    const apart = [];
    for (const element of document.querySelectorAll("body *:not(script, style, noscript, template, title)")) {
      if (![...element.childNodes].every((node) => node.nodeType === 3) || !script.test(element.textContent)) continue;
      const drawn = line(element);
      if (drawn === undefined) continue;
      const copy = element.cloneNode(true);
      copy.removeAttribute("id");
      copy.style.cssText += ";position:absolute;visibility:hidden;white-space:nowrap";
      element.after(copy);
      const fresh = line(copy);
      copy.remove();
      if (fresh !== undefined && Math.abs(drawn - fresh) > 2) apart.push(element.tagName + " " + Math.round(drawn) + " px, afresh " + Math.round(fresh) + ": " + element.textContent.trim().slice(0, 30));
    }
    return apart;
  }
  return {
    lang: document.documentElement.lang,
    outside,
    latin: [...new Set(text.match(/[A-Za-z]{2,}/g) || [])],
    digits: [...new Set(text.match(/[0-9]+/g) || [])],
    fonts: [...new Set([...document.fonts].filter((face) => face.status !== "unloaded").map((face) => face.family.replace(/"/g, "")))],
    fetched: performance.getEntriesByType("resource").map((entry) => entry.name).filter((name) => /\\.woff2?$/.test(name)),
    found: !!document.querySelector('main a[href="/blog/${LONG_ARTICLE}"]'),
    boxed: drawnApart(),
  };
})()`;

type Seen = {
  lang: string;
  outside: string[];
  latin: string[];
  digits: string[];
  fonts: string[];
  fetched: string[];
  found: boolean;
  boxed: string[];
};

/** The languages whose font such a reader must get from the site (Lao letters are in DejaVu Sans, Linux's default). */
const fetchedWithoutSystemFont = new Set(["my", "si", "km", "bo", "dz"]);

const engines: EngineName[] = ["chromium", ...engineNames];

describe.each(engines)("%s", (engine) => {
  let sites: Awaited<ReturnType<typeof startScriptSites>>;
  const proxies: Array<Awaited<ReturnType<typeof startHookProxy>>> = [];
  beforeAll(async () => {
    sites = await startScriptSites();
  });
  afterAll(async () => {
    for (const proxy of proxies) await proxy.stop();
    await sites?.stop();
  });

  test("the nine languages at 375 px: within the column, no English or fallback, no other script's font", async () => {
    // Chromium and Firefox as a reader whose system has no font for these scripts; WebKit with the machine's.
    const hideFonts = engine !== "webkit";
    const page = await launchWithoutScriptFonts(hideFonts, () =>
      launch(engine, { width: 375, height: 740 }, inject("webkitDriverUrl")),
    );
    const problems: string[] = [];
    try {
      for (const site of scriptSites) {
        const proxy = await startHookProxy(sites.url, { host: site.host });
        proxies.push(proxy);
        // A browser fetches a font once and keeps it for the next pages: counted over the language's pages.
        const fetched = new Set<string>();
        const pages = ["/", `/blog/${LONG_ARTICLE}`, `/search?q=${encodeURIComponent(searchWord(site))}`];
        for (const path of pages) {
          await page.goto(proxy.url + path);
          // 27 pages in a row on a shared machine: a slow hydration is not what this test is about.
          await page.waitFor(isHydrated, "the page to hydrate", 30_000);
          await page.evaluate("document.fonts.ready.then(() => true)");
          const seen = await page.evaluate<Seen>(inspect);
          const where = `${site.lang} ${path}`;
          if (seen.lang !== site.lang) problems.push(`${where}: lang="${seen.lang}"`);
          for (const item of seen.outside) problems.push(`${where}: past the column: ${item}`);
          for (const item of seen.boxed) problems.push(`${where}: drawn with missing-glyph boxes: ${item}`);
          if (seen.latin.length > 0) problems.push(`${where}: Latin letters: ${seen.latin.join(" ")}`);
          if (ownDigits.has(site.lang) && seen.digits.length > 0)
            problems.push(`${where}: ASCII digits: ${seen.digits.join(" ")}`);
          const foreign = seen.fonts.filter((family) => family !== ownFont[site.lang]);
          if (foreign.length > 0) problems.push(`${where}: loaded fonts ${foreign.join(", ")}`);
          const elsewhere = seen.fetched.filter((url) => !url.startsWith(`${proxy.url}/build/_assets/`));
          if (elsewhere.length > 0)
            problems.push(`${where}: fonts from elsewhere than the site's built assets: ${elsewhere.join(" ")}`);
          for (const url of seen.fetched) fetched.add(url);
          if (hideFonts && fetchedWithoutSystemFont.has(site.lang) && !seen.fonts.includes(ownFont[site.lang]!)) {
            problems.push(
              `${where}: without a system font, the page uses ${seen.fonts.join(", ") || "no font of the site"}`,
            );
          }
          if (path.startsWith("/search") && !seen.found)
            problems.push(`${where}: the article is not among the results`);
        }
        if (hideFonts && fetchedWithoutSystemFont.has(site.lang) && fetched.size !== 1)
          problems.push(`${site.lang}: without a system font, fetched ${JSON.stringify([...fetched])}`);
        problems.push(
          ...withoutNotFoundNotice(await page.consoleProblems()).map((problem) => `${site.lang}: console: ${problem}`),
        );
        await page.clearConsole();
      }
    } finally {
      await page.close();
    }
    expect(problems).toEqual([]);
  }, 360_000);
});
