import { readdirSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { XMLParser } from "fast-xml-parser";
import CachePolicy from "http-cache-semantics";
import { expect, test, urls } from "./fixtures";

// What a crawler sees: raw HTTP, no JavaScript. Run once, in the no-JavaScript desktop project.
const crawler = { tag: ["@nojs", "@desktop"] };
const googlebot = { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };

const embeddedSlugs = readdirSync("content/blog")
  .filter((name) => name.endsWith(".md"))
  .map((name) => name.slice(0, -3));

async function fetchPage(request: APIRequestContext, url: string) {
  const response = await request.get(url, { headers: googlebot, maxRedirects: 0 });
  const html = await response.text();
  const attr = (pattern: RegExp) => pattern.exec(html)?.[1];
  return {
    response,
    html,
    canonical: attr(/<link rel="canonical" href="([^"]+)"/),
    og: (name: string) => attr(new RegExp(`<meta property="og:${name}" content="([^"]*)"`)),
    meta: (name: string) => attr(new RegExp(`<meta name="${name}" content="([^"]*)"`)),
    link: (rel: string) => attr(new RegExp(`<link rel="${rel}" href="([^"]+)"`)),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((match) =>
      JSON.parse(match[1] ?? "null"),
    ),
  };
}

test.describe("crawlers", crawler, () => {
  test("every page has an absolute canonical URL, Open Graph and a Twitter card", async ({ request }) => {
    for (const [path, canonical, type] of [
      ["/", `${urls.demo}/`, "website"],
      ["/?utm_source=newsletter&fbclid=x", `${urls.demo}/`, "website"],
      ["/blog", `${urls.demo}/blog`, "website"],
      ["/blog?page=2&utm_campaign=x", `${urls.demo}/blog?page=2`, "website"],
      ["/blog/how-to-start-zazen-at-home", `${urls.demo}/blog/how-to-start-zazen-at-home`, "article"],
    ] as const) {
      const page = await fetchPage(request, urls.demo + path);
      expect(page.response.status(), path).toBe(200);
      expect(page.canonical, path).toBe(canonical);
      expect(page.og("url"), path).toBe(canonical);
      expect(page.og("type"), path).toBe(type);
      expect(page.og("site_name"), path).toBe("Zen Buddhism");
      expect(page.og("title"), path).toBeTruthy();
      expect(page.og("description"), path).toBeTruthy();
      expect(page.meta("twitter:card"), path).toMatch(/^summary/);
      expect(page.html, path).toContain('<link rel="alternate" type="application/rss+xml"');
      expect(page.meta("robots"), path).toBeUndefined();
    }
  });

  test("SITE_URL decides the canonical origin, and articles carry image and publication time", async ({ request }) => {
    const page = await fetchPage(request, `${urls.configured}/blog/backend-article-1`);
    expect(page.canonical).toBe("https://chan.example.test/blog/backend-article-1");
    expect(page.og("image")).toBe("https://images.example.test/article-1.jpg");
    expect(page.html).toMatch(/<meta property="article:published_time" content="2024-12-31T00:00:00.000Z"/);
    const embedded = await fetchPage(request, `${urls.demo}/blog/how-to-start-zazen-at-home`);
    expect(embedded.og("image")).toBe(`${urls.demo}/images/blog/how-to-start-zazen-at-home.jpg`);
  });

  test("JSON-LD describes the site, the blog and each article", async ({ request }) => {
    const home = await fetchPage(request, `${urls.demo}/`);
    expect(home.jsonLd).toContainEqual(
      expect.objectContaining({ "@type": "WebSite", name: "Zen Buddhism", url: `${urls.demo}/` }),
    );

    const blog = await fetchPage(request, `${urls.demo}/blog`);
    const crumbs = blog.jsonLd.find((item) => item["@type"] === "BreadcrumbList");
    expect(crumbs.itemListElement.map((item: { name: string; item: string }) => [item.name, item.item])).toEqual([
      ["Home", `${urls.demo}/`],
      ["Blog", `${urls.demo}/blog`],
    ]);

    const article = await fetchPage(request, `${urls.demo}/blog/how-to-start-zazen-at-home`);
    const posting = article.jsonLd.find((item) => item["@type"] === "BlogPosting");
    expect(posting).toMatchObject({
      "@context": "https://schema.org",
      headline: "How to Start Zazen at Home",
      datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      image: `${urls.demo}/images/blog/how-to-start-zazen-at-home.jpg`,
      url: `${urls.demo}/blog/how-to-start-zazen-at-home`,
      publisher: { "@type": "Organization", name: "Zen Buddhism" },
    });
    expect(posting.description.length).toBeGreaterThan(50);
    expect(article.jsonLd.find((item) => item["@type"] === "BreadcrumbList").itemListElement).toHaveLength(3);
  });

  test("list pages link their neighbours with rel prev and next", async ({ request }) => {
    const first = await fetchPage(request, `${urls.configured}/blog`);
    expect(first.link("prev")).toBeUndefined();
    expect(first.link("next")).toBe("https://chan.example.test/blog?page=2");
    const middle = await fetchPage(request, `${urls.configured}/blog?page=2`);
    expect(middle.link("prev")).toBe("https://chan.example.test/blog");
    expect(middle.link("next")).toBe("https://chan.example.test/blog?page=3");
    const last = await fetchPage(request, `${urls.configured}/blog?page=3`);
    expect(last.link("next")).toBeUndefined();
  });

  test("status codes are honest for every route and state", async ({ request }) => {
    const cases: [string, number, string?][] = [
      [`${urls.demo}/`, 200],
      [`${urls.demo}/blog`, 200],
      [`${urls.demo}/blog?page=2`, 200],
      [`${urls.demo}/blog/how-to-start-zazen-at-home`, 200],
      [`${urls.demo}/blog?page=1`, 301, "/blog"],
      [`${urls.demo}/blog?page=two`, 301, "/blog"],
      [`${urls.demo}/blog?page=3`, 404],
      [`${urls.demo}/blog?page=999999`, 404],
      [`${urls.demo}/blog/no-such-article`, 404],
      [`${urls.demo}/no/such/page`, 404],
      [`${urls.configured}/blog/fault-null`, 404],
      [`${urls.configured}/blog/fault-500`, 503],
      [`${urls.broken}/blog`, 503],
      [`${urls.broken}/blog/anything`, 503],
      [`${urls.broken}/sitemap.xml`, 503],
      [`${urls.demo}/sitemap.xml`, 200],
      [`${urls.demo}/robots.txt`, 200],
      [`${urls.demo}/blog/rss.xml`, 200],
    ];
    for (const [url, status, location] of cases) {
      const response = await request.get(url, { headers: googlebot, maxRedirects: 0 });
      expect(response.status(), url).toBe(status);
      if (location)
        expect(
          new URL(response.headers().location ?? "", url).pathname +
            new URL(response.headers().location ?? "", url).search,
          url,
        ).toBe(location);
      if (status === 404 || status === 503) {
        const html = await response.text();
        if (response.headers()["content-type"]?.includes("html"))
          expect(html, url).toContain('<meta name="robots" content="noindex"');
      }
    }
  });

  test("a malformed Host header gets a plain 400, not an error page", async ({ request }) => {
    for (const host of ["a b", "<script>alert(1)</script>", "example.org:99999"]) {
      const response = await request.get(`${urls.demo}/blog`, { headers: { Host: host }, maxRedirects: 0 });
      expect(response.status(), host).toBe(400);
      expect(await response.text(), host).toBe("Bad Request: invalid Host header\n");
    }
    const ok = await request.get(`${urls.demo}/blog`, { headers: { Host: "www.zen.example.org" } });
    expect(ok.status()).toBe(200);
  });

  test("crawlers get the complete article in the first response", async ({ request }) => {
    const page = await fetchPage(request, `${urls.demo}/blog/how-to-start-zazen-at-home`);
    expect(page.html).toContain("<title>How to Start Zazen at Home</title>");
    expect(page.html).toMatch(/<h1[^>]*>How to Start Zazen at Home<\/h1>/);
    expect(page.html).toContain('class="article-body');
    expect(page.html).toMatch(/Published on <time dateTime=/);
    // Every article is reachable by a plain link from the list pages.
    const list =
      (await fetchPage(request, `${urls.demo}/blog`)).html +
      (await fetchPage(request, `${urls.demo}/blog?page=2`)).html;
    for (const slug of embeddedSlugs) expect(list, slug).toContain(`href="/blog/${slug}"`);
  });
});

test.describe("files for crawlers and readers", crawler, () => {
  const xml = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === "url" || name === "item" || name === "sitemap",
  });

  /** Every URL the sitemap index leads to, part by part. */
  async function sitemapLocs(request: APIRequestContext, origin: string) {
    const index = await request.get(`${origin}/sitemap.xml`);
    expect(index.headers()["content-type"]).toContain("application/xml");
    const parts: string[] = xml
      .parse(await index.text())
      .sitemapindex.sitemap.map((entry: { loc: string }) => entry.loc);
    const locs: string[] = [];
    for (const part of parts) {
      const url = new URL(part);
      const response = await request.get(`${origin}${url.pathname}${url.search}`);
      expect(response.headers()["content-type"], part).toContain("application/xml");
      locs.push(...xml.parse(await response.text()).urlset.url.map((entry: { loc: string }) => entry.loc));
    }
    return locs;
  }

  test("the sitemap lists home, every list page and every article with absolute URLs", async ({ request }) => {
    // Keyword pages join the sitemap once the catalogue has read the articles (tests/server/search.test.ts checks them).
    const pagesOnly = (locs: string[]) => locs.filter((loc) => !new URL(loc).pathname.startsWith("/keywords/"));
    const demoLocs = pagesOnly(await sitemapLocs(request, urls.demo));
    expect(demoLocs).toEqual(
      expect.arrayContaining([
        `${urls.demo}/`,
        `${urls.demo}/blog`,
        `${urls.demo}/blog?page=2`,
        ...embeddedSlugs.map((slug) => `${urls.demo}/blog/${slug}`),
      ]),
    );
    expect(demoLocs).toHaveLength(3 + embeddedSlugs.length);

    const hostedLocs = pagesOnly(await sitemapLocs(request, urls.configured));
    expect(hostedLocs).toHaveLength(1 + 3 + 23);
    expect(hostedLocs).toContain("https://chan.example.test/blog/backend-article-23");
    expect(hostedLocs).toContain("https://chan.example.test/blog?page=3");
  });

  test("robots.txt allows crawling and names the sitemap", async ({ request }) => {
    const text = await (await request.get(`${urls.configured}/robots.txt`)).text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Allow: \/$/m);
    expect(text).toMatch(/^Sitemap: https:\/\/chan\.example\.test\/sitemap\.xml$/m);
  });

  test("the RSS 2.0 feed carries the newest articles", async ({ request }) => {
    const response = await request.get(`${urls.configured}/blog/rss.xml`);
    expect(response.headers()["content-type"]).toContain("application/rss+xml");
    const feed = xml.parse(await response.text()).rss;
    expect(feed["@_version"]).toBe("2.0");
    expect(feed.channel.title).toBe("Chan Practice Center · Blog");
    const items = feed.channel.item;
    expect(items).toHaveLength(10);
    expect(items[0].title).toBe("Backend Article 1: Notes on Practice");
    expect(items[0].link).toBe("https://chan.example.test/blog/backend-article-1");
    expect(new Date(items[0].pubDate).toISOString()).toBe("2024-12-31T00:00:00.000Z");
  });
});

test.describe("caching headers", crawler, () => {
  const policyFor = async (request: APIRequestContext, url: string) => {
    const response = await request.get(url, { maxRedirects: 0 });
    const parsed = new URL(url);
    return {
      response,
      policy: new CachePolicy(
        { url: parsed.pathname + parsed.search, method: "GET", headers: { host: parsed.host } },
        { status: response.status(), headers: response.headers() },
        { shared: true },
      ),
    };
  };

  test("a shared cache (CDN) may store the HTML and serve it stale on error", async ({ request }) => {
    for (const path of ["/", "/blog", "/blog/how-to-start-zazen-at-home"]) {
      const { response, policy } = await policyFor(request, urls.demo + path);
      expect(policy.storable(), path).toBe(true);
      expect(policy.timeToLive(), path).toBeGreaterThanOrEqual(60_000);
      expect(response.headers()["cache-control"], path).toMatch(/stale-while-revalidate=\d+.*stale-if-error=\d+/);
    }
  });

  test("an outage is never cached and a 404 only briefly", async ({ request }) => {
    const outage = await policyFor(request, `${urls.broken}/blog`);
    expect(outage.response.status()).toBe(503);
    expect(outage.policy.storable()).toBe(false);
    const missing = await policyFor(request, `${urls.demo}/blog/no-such-article`);
    expect(missing.policy.timeToLive()).toBeLessThanOrEqual(60_000);
  });

  test("build assets are immutable for a year; sitemap, robots and feed are cacheable", async ({ request }) => {
    const html = await (await request.get(`${urls.demo}/`)).text();
    const asset = /\/build\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    for (const [accept, encoding] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const compressed = await request.get(urls.demo + asset, { headers: { "Accept-Encoding": accept } });
      expect(compressed.headers()["content-encoding"], accept).toBe(encoding);
      expect(compressed.headers().vary, accept).toContain("Accept-Encoding");
      expect((await compressed.text()).length, accept).toBeGreaterThan(100);
    }
    const cacheControl = (await request.get(urls.demo + asset)).headers()["cache-control"];
    expect(cacheControl).toContain("immutable");
    expect(cacheControl).toContain("max-age=31536000");
    for (const path of ["/sitemap.xml", "/robots.txt", "/blog/rss.xml"]) {
      const { policy } = await policyFor(request, urls.demo + path);
      expect(policy.storable(), path).toBe(true);
    }
  });
});
