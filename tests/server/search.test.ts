import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { languageSites, vietnameseContentDir } from "../support/servers.mjs";
import { freePort, startSite } from "../support/site-process.mjs";

// Search as a reader without JavaScript gets it: the server's HTML alone, on sites in several languages,
// with words found inside sentences written without spaces, and any query answered with a page, never a 5xx.

type Site = Awaited<ReturnType<typeof startSite>>;
let sites: { en: Site; vi: Site; ja: Site; th: Site; backend: Site; reading: Site; burmese: Site };
/** A Burmese backend whose articles are written in Zawgyi: one short, one long enough to be read in the worker. */
let zawgyiBackend: Awaited<ReturnType<typeof startFakeBackend>>;
const ZAWGYI = {
  title: "ဘုန္းႀကီးေက်ာင္း",
  line: "လုိင္းျဖင့္ ေနျပည္ေတာ္မွထြက္ခြာရာ နံနက္ ၈ နာရီခြဲတြင္ မြန္ျပည္နယ္ ေမာ္လၿမိဳင္ ေလဆိပ္ သို႔ ေရာက္ရွိၾကသည္။",
};
const UNICODE = {
  title: "ဘုန်းကြီးကျောင်း",
  line: "လိုင်းဖြင့် နေပြည်တော်မှထွက်ခွာရာ နံနက် ၈ နာရီခွဲတွင် မွန်ပြည်နယ် မော်လမြိုင် လေဆိပ် သို့ ရောက်ရှိကြသည်။",
};
let backend: Awaited<ReturnType<typeof startFakeBackend>>;
/** A backend of 100,000 articles read at one call a second: its first sync reads the list for hours. */
let largeBackend: Awaited<ReturnType<typeof startFakeBackend>>;
let metricsPort: number;
const contentOf = (lang: string) => languageSites.find((site) => site.lang === lang)!.contentDir;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 25 });
  largeBackend = await startFakeBackend({ articles: 100_000 });
  const zawgyiArticle = (slug: string, date: string, body: string) => ({
    id: slug,
    slug,
    metaTitle: `${ZAWGYI.title} ${slug}`,
    metaDescription: "တရားထိုင္ျခင္း",
    date,
    blog: body,
    shortTailKeywords: "ေမတၲာ",
  });
  zawgyiBackend = await startFakeBackend({
    content: [
      zawgyiArticle("short", "2024-01-06", ZAWGYI.line),
      zawgyiArticle("long", "2024-01-05", `${ZAWGYI.line}\n\n`.repeat(60)),
    ],
  });
  metricsPort = await freePort();
  const [en, vi, ja, th, hosted, reading, burmese] = await Promise.all([
    startSite({ METRICS_PORT: String(metricsPort) }),
    startSite({ SITE_LANGUAGE: "vi", CONTENT_DIR: vietnameseContentDir }),
    startSite({ SITE_LANGUAGE: "ja", CONTENT_DIR: contentOf("ja") }),
    startSite({ SITE_LANGUAGE: "th", CONTENT_DIR: contentOf("th") }),
    startSite({
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      SITE_DOMAIN: "zen.example.org",
      CATALOGUE_SYNC: "on",
      CATALOGUE_CALLS_PER_SECOND: "100",
    }),
    startSite({
      BLOG_API_URL: largeBackend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      SITE_DOMAIN: "large.example.org",
      CATALOGUE_SYNC: "on",
      CATALOGUE_CALLS_PER_SECOND: "1",
    }),
    startSite({
      SITE_LANGUAGE: "my",
      BLOG_API_URL: zawgyiBackend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      SITE_DOMAIN: "my.example.org",
      CATALOGUE_SYNC: "on",
      CATALOGUE_CALLS_PER_SECOND: "100",
    }),
  ]);
  sites = { en, vi, ja, th, backend: hosted, reading, burmese };
  // The hosted site's first sync: its 25 articles with their bodies.
  const deadline = Date.now() + 15_000;
  while (backend.calls().filter((call) => call.path === "/get_details").length < 25 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(sites ?? {}).map((site) => site.stop()));
  await backend?.close();
  await largeBackend?.close();
  await zawgyiBackend?.close();
});

const decode = (text: string) =>
  text
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const text = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ""))
    .replace(/\s+/g, " ")
    .trim();

async function search(site: Site, query: string, extra = "") {
  const response = await fetch(`${site.url}/search?q=${encodeURIComponent(query)}${extra}`, { redirect: "manual" });
  const raw = await response.text();
  const html = raw.includes("</html>") ? documentPart(raw) : raw;
  const list = /<ol aria-label="[^"]*"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? "";
  const results = [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => ({
    href: /href="([^"]+)"/.exec(item!)?.[1],
    marks: [...item!.matchAll(/<mark[^>]*>([^<]*)<\/mark>/g)].map((match) => decode(match[1]!)),
    text: text(item!),
  }));
  return {
    status: response.status,
    headers: response.headers,
    html,
    main: text(/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? ""),
    results,
  };
}

describe("search without JavaScript", () => {
  it("finds a Vietnamese article by words typed without accents, and marks them as written", async () => {
    const page = await search(sites.vi, "dem hoi tho");
    expect(page.status).toBe(200);
    expect(page.results[0]?.href).toBe("/blog/tho-va-thien");
    expect(page.results[0]?.marks.map((mark) => mark.toLowerCase())).toEqual(
      expect.arrayContaining(["đếm", "hơi", "thở"]),
    );
    expect(page.main).toMatch(/\d+ kết quả/);
  });

  it("finds a Japanese word inside a sentence without spaces", async () => {
    const page = await search(sites.ja, "坐蒲");
    expect(page.results.map((result) => result.href)).toEqual(["/blog/zazen-no-hajimekata"]);
    expect(page.results[0]!.marks).toContain("坐蒲");
    expect(page.main).toContain("1件");
    // The snippet reads as the article does: no visible word breaks.
    expect(page.results[0]!.text).not.toContain("\u200b");
  });

  it("finds a Thai word inside a sentence without spaces", async () => {
    const page = await search(sites.th, "กรรมฐาน");
    expect(page.results.map((result) => result.href)).toEqual(["/blog/anapanasati-bueang-ton"]);
    expect(page.results[0]!.marks).toContain("กรรมฐาน");
  });

  it("says in the site's language when the query is empty or nothing matches, and suggests an indexed word", async () => {
    const empty = await search(sites.vi, "");
    expect(empty.status).toBe(200);
    expect(empty.main).toContain("Nhập một vài từ để tìm");
    const none = await search(sites.en, "qqqzzzxxx");
    expect(none.status).toBe(200);
    expect(none.main).toContain("No article matches “qqqzzzxxx”");
    const typo = await search(sites.en, "meditaton");
    expect(typo.main).toContain("Did you mean meditation?");
    expect(typo.html).toContain('href="/search?q=meditation"');
  });

  it("pages the results ten at a time with plain links, and answers 404 past the last page", async () => {
    const first = await search(sites.backend, "backend article");
    expect(first.main).toContain("25 results");
    expect(first.results).toHaveLength(10);
    expect(first.html).toContain('href="/search?q=backend+article&amp;page=2"');
    const third = await search(sites.backend, "backend article", "&page=3");
    expect(third.results).toHaveLength(5);
    const all = new Set(
      [first, await search(sites.backend, "backend article", "&page=2"), third].flatMap((page) =>
        page.results.map((result) => result.href),
      ),
    );
    expect(all.size).toBe(25);
    expect((await search(sites.backend, "backend article", "&page=4")).status).toBe(404);
    expect((await search(sites.backend, "backend article", "&page=1")).status).toBe(301);
    expect((await search(sites.backend, "backend article", "&page=x")).headers.get("location")).toBe(
      "/search?q=backend+article",
    );
  });

  it("is never indexed, cached like other pages, and offered to browsers through OpenSearch", async () => {
    const page = await search(sites.en, "zazen");
    expect(page.html).toContain('<meta name="robots" content="noindex"/>');
    expect(page.headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    expect(page.html).toMatch(
      /<form[^>]*role="search"[^>]*aria-label="Search the articles"[^>]*action="\/search"|<form[^>]*action="\/search"[^>]*role="search"/,
    );
    expect(page.html).toContain('<link rel="search" type="application/opensearchdescription+xml"');
    const description = await fetch(`${sites.en.url}/opensearch.xml`);
    expect(description.headers.get("content-type")).toContain("application/opensearchdescription+xml");
    expect(await description.text()).toContain(`template="${sites.en.url}/search?q={searchTerms}"`);
    const sitemap = await (await fetch(`${sites.en.url}/sitemap-pages.xml`)).text();
    expect(sitemap).not.toContain("/search");
  });

  it("takes any query as text: a page, never a server error", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300, unit: "grapheme" }),
          fc.string({ maxLength: 50, unit: "binary" }),
          fc.constantFrom(
            '"',
            "*",
            "NEAR(a b",
            "a OR b",
            "-zen",
            "zen AND",
            "\u0000",
            "title:zen",
            "{title}:x",
            "^zen",
            "x".repeat(10_000),
          ),
        ),
        async (query) => {
          const page = await search(sites.en, query);
          expect(page.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    // A long query is cut to 200 characters: what the page shows it searched for.
    const long = await search(sites.en, "zazen ".repeat(2000));
    expect(long.status).toBe(200);
    expect(/<input[^>]*name="q"[^>]*value="([^"]*)"/.exec(long.html)?.[1]?.length).toBe(200);
  }, 60_000);
});

describe("Burmese written in Zawgyi", () => {
  it("is shown, indexed and found as Unicode, by a query in either encoding", async () => {
    for (const slug of ["short", "long"]) {
      const html = documentPart(await (await fetch(`${sites.burmese.url}/blog/${slug}`)).text());
      expect(html, slug).toContain(`${UNICODE.title} ${slug}`);
      expect(html, slug).toContain(UNICODE.line);
      expect(html, slug).toContain("တရားထိုင်ခြင်း");
      expect(html, slug).toContain("မေတ္တာ");
      expect(html, slug).not.toContain(ZAWGYI.title);
    }
    // Until the sync has stored both; each try a new address (trailing spaces), as the page cache keeps the last.
    let page = await search(sites.burmese, UNICODE.title);
    for (let tries = 1; page.results.length < 2 && tries < 75; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await search(sites.burmese, UNICODE.title + " ".repeat(tries));
    }
    expect(page.results.map((result) => result.href).sort()).toEqual(["/blog/long", "/blog/short"]);
    const typed = await search(sites.burmese, ZAWGYI.title);
    expect(typed.results.map((result) => result.href).sort()).toEqual(["/blog/long", "/blog/short"]);
    expect(typed.results[0]!.text).toContain(UNICODE.title);
    expect((await search(sites.burmese, "ေလဆိပ္")).results.map((result) => result.href).sort()).toEqual([
      "/blog/long",
      "/blog/short",
    ]);
  }, 30_000);
});

describe("while the first sync still reads a site's list", () => {
  it("says so, with how many articles it has read, instead of that no article matches, and is cached briefly", async () => {
    // The first search opens the catalogue and starts its sync.
    const first = await search(sites.reading, "qqqzzzxxx");
    expect(first.status).toBe(200);
    expect(first.main).toMatch(
      /Search is still reading the articles of .+: \d+ so far\. Until it has read them all, some may be missing here\./,
    );
    expect(first.main).not.toContain("No article matches");
    expect(first.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    // A page of ten a second: the count grows while the results already show what has been read.
    let page = first;
    for (let n = 1; !/: [1-9]\d* so far/.test(page.main) && n < 100; n++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await search(sites.reading, `backend article ${n}`);
    }
    const read = Number(/: (\d+) so far/.exec(page.main)?.[1]);
    expect(read % 10).toBe(0);
    expect(read).toBeGreaterThanOrEqual(10);
    expect(read).toBeLessThan(100_000);
    const found = await search(sites.reading, "backend article");
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.main).toMatch(/Search is still reading the articles of .+: [1-9]\d* so far/);
    expect(found.html).toContain('role="status"');
    // A site whose list has been read says nothing of the kind.
    expect((await search(sites.backend, "qqqzzzxxx")).main).toContain("No article matches “qqqzzzxxx”");
  }, 30_000);
});

describe("the metrics", () => {
  it("count searches by outcome with their time, and give each catalogue's size and sync lag", async () => {
    await search(sites.en, "zazen");
    await search(sites.en, "qqqzzzxxx");
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}"]/g, "\\$&")} (\\S+)$`, "m").exec(metrics)?.[1]);
    expect(value('content_site_search_requests_total{site="default",outcome="found"}')).toBeGreaterThanOrEqual(1);
    expect(value('content_site_search_requests_total{site="default",outcome="none"}')).toBeGreaterThanOrEqual(1);
    expect(value('content_site_search_duration_seconds_count{site="default"}')).toBeGreaterThanOrEqual(2);
    expect(value('content_site_catalog_articles{site="default"}')).toBe(13);
    expect(value('content_site_catalog_articles_with_body{site="default"}')).toBe(13);
    expect(value('content_site_catalog_sync_lag_seconds{site="default"}')).toBeLessThan(120);
  });
});

describe("keyword pages", () => {
  it("list every article with the keyword, linked from the chips, with a canonical address and a sitemap entry", async () => {
    const article = await (await fetch(`${sites.en.url}/blog/how-to-start-zazen-at-home`)).text();
    const chip = /href="(\/keywords\/[^"]+)"/.exec(documentPart(article))?.[1];
    expect(chip).toBeDefined();
    const response = await fetch(sites.en.url + chip!);
    expect(response.status).toBe(200);
    const html = documentPart(await response.text());
    expect(html).toContain(`<link rel="canonical" href="${sites.en.url}${chip}"/>`);
    expect(html).toContain('href="/blog/how-to-start-zazen-at-home"');
    const redirected = await fetch(`${sites.en.url}/keywords/ZAZEN`, { redirect: "manual" });
    expect(redirected.status).toBe(301);
    expect(redirected.headers.get("location")).toBe("/keywords/zazen");
    expect((await fetch(`${sites.en.url}/keywords/no-such-keyword-here`)).status).toBe(404);
    const index = await (await fetch(`${sites.en.url}/sitemap.xml`)).text();
    expect(index).toContain("/sitemap-keywords.xml");
    const keywords = await (await fetch(`${sites.en.url}/sitemap-keywords.xml`)).text();
    expect(keywords).toContain(`<loc>${sites.en.url}${chip}</loc>`);
  });

  it("page a keyword with many articles ten at a time", async () => {
    // Every backend article with short-tail keywords has "zen" (two in three of them).
    const first = await fetch(`${sites.backend.url}/keywords/zen`);
    const html = documentPart(await first.text());
    expect(html).toContain("17 articles");
    expect(html).toContain('href="/keywords/zen?page=2"');
    const second = documentPart(await (await fetch(`${sites.backend.url}/keywords/zen?page=2`)).text());
    expect([...second.matchAll(/href="\/blog\/backend-article-\d+"/g)]).toHaveLength(7);
  });
});
