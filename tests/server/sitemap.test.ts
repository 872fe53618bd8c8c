import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, makeArticle, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The sitemap as a crawler reads it: robots.txt names the index, the index names the parts, every part
// passes the sitemaps.org schema (xmllint), every article is listed once with its date, and no one
// response costs more backend calls however large the blog is.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

const SITEMAP_XSD = "node_modules/sitemap/schema/sitemap.xsd";
const SITEINDEX_XSD = "tests/support/schemas/siteindex.xsd";
/** The most backend calls one sitemap response may make: the total, ten list pages, a hundred details. */
const MAX_CALLS_PER_RESPONSE = 1 + 10 + 100;

const xml = new XMLParser({ isArray: (name) => name === "url" || name === "sitemap" });
const scratch = mkdtempSync(path.join(tmpdir(), "sitemaps-"));
let written = 0;

/** Validates with xmllint against the schema; returns xmllint's complaint, or "" when valid. */
function schemaErrors(body: string, schema: string): string {
  const file = path.join(scratch, `sitemap-${(written += 1)}.xml`);
  writeFileSync(file, body);
  try {
    execFileSync("xmllint", ["--noout", "--schema", schema, file], { stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

async function get(site: Site, pathOrUrl: string) {
  const url = new URL(pathOrUrl, site.url);
  const response = await fetch(`${site.url}${url.pathname}${url.search}`);
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
}

/** Follows robots.txt to the index and the index to every part, checking each against its schema. */
async function crawl(site: Site) {
  const robots = await get(site, "/robots.txt");
  const indexUrl = /^Sitemap: (\S+)$/m.exec(robots.body)?.[1];
  expect(indexUrl).toBe(`${site.url}/sitemap.xml`);
  const index = await get(site, indexUrl ?? "");
  expect(index.status).toBe(200);
  expect(index.type).toContain("application/xml");
  expect(schemaErrors(index.body, SITEINDEX_XSD)).toBe("");
  const partUrls: string[] = xml.parse(index.body).sitemapindex.sitemap.map((entry: { loc: string }) => entry.loc);
  const urls: { loc: string; lastmod?: string }[] = [];
  for (const partUrl of partUrls) {
    const part = await get(site, partUrl);
    expect(part.status, partUrl).toBe(200);
    expect(schemaErrors(part.body, SITEMAP_XSD), partUrl).toBe("");
    urls.push(...xml.parse(part.body).urlset.url);
  }
  return { partUrls, urls };
}

let backend: Backend;
let bigBackend: Backend;
let site: Site;
let bigSite: Site;
let demo: Site;

beforeAll(async () => {
  [backend, bigBackend] = await Promise.all([
    startFakeBackend({ articles: 230 }),
    startFakeBackend({ articles: 100_000 }),
  ]);
  [site, bigSite, demo] = await Promise.all([
    startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN }),
    startSite({ BLOG_API_URL: bigBackend.url, BLOG_API_TOKEN: FAKE_TOKEN }),
    startSite({}),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([site?.stop(), bigSite?.stop(), demo?.stop()]);
  await Promise.all([backend?.close(), bigBackend?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe("the sitemap of a hosted blog", () => {
  it("lists home, every list page and every article once, each article with its date as lastmod", async () => {
    const { partUrls, urls } = await crawl(site);
    expect(partUrls).toEqual([
      `${site.url}/sitemap-pages.xml`,
      `${site.url}/sitemap-articles.xml?part=1`,
      `${site.url}/sitemap-articles.xml?part=2`,
      `${site.url}/sitemap-articles.xml?part=3`,
    ]);
    const locs = urls.map((url) => url.loc);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.slice(0, 24)).toEqual([
      `${site.url}/`,
      `${site.url}/blog`,
      ...Array.from({ length: 22 }, (_, i) => `${site.url}/blog?page=${i + 2}`),
    ]);
    const articles = urls.filter((url) => url.loc.includes("/blog/"));
    expect(articles).toHaveLength(230);
    for (const [index, url] of articles.entries()) {
      const article = makeArticle(index + 1);
      expect(url).toEqual({
        loc: `${site.url}/blog/${article.slug}`,
        lastmod: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
      });
      expect(url.lastmod?.slice(0, 10), article.slug).toBe(article.date);
    }
  });

  it("answers 404 for a part that does not exist, without asking the backend for it", async () => {
    await get(site, "/sitemap.xml");
    backend.reset();
    for (const query of ["?part=4", "?part=0", "?part=x", "?part=1&part=2", "", "?part=99999999"]) {
      const part = await get(site, `/sitemap-articles.xml${query}`);
      expect(part.status, query).toBe(404);
      expect(part.body, query).toBe("No such sitemap part\n");
    }
    expect(backend.calls()).toEqual([]);
  });
});

describe("a blog of 100,000 articles", () => {
  it("has an index of 1,001 parts for one backend call", async () => {
    bigBackend.reset();
    const index = await get(bigSite, "/sitemap.xml");
    expect(schemaErrors(index.body, SITEINDEX_XSD)).toBe("");
    const parts = xml.parse(index.body).sitemapindex.sitemap;
    expect(parts).toHaveLength(1 + 1000);
    expect(bigBackend.calls()).toHaveLength(1);
  });

  it("lists the oldest article in the last part, and no part costs more than a bounded number of calls", async () => {
    for (const [partPath, last] of [
      ["/sitemap-articles.xml?part=1000", "/blog/backend-article-100000"],
      ["/sitemap-articles.xml?part=500", "/blog/backend-article-50000"],
      ["/sitemap-pages.xml", "/blog?page=10000"],
    ] as const) {
      bigBackend.reset();
      const part = await get(bigSite, partPath);
      expect(part.status, partPath).toBe(200);
      expect(schemaErrors(part.body, SITEMAP_XSD), partPath).toBe("");
      const urls = xml.parse(part.body).urlset.url;
      expect(urls.at(-1).loc, partPath).toBe(`${bigSite.url}${last}`);
      expect(bigBackend.calls().length, partPath).toBeLessThanOrEqual(MAX_CALLS_PER_RESPONSE);
    }
  });
});

describe("the sitemap of the embedded articles", () => {
  it("lists every article file with its date and passes the schema", async () => {
    const { urls } = await crawl(demo);
    const slugs = readdirSync("content/blog")
      .filter((name) => name.endsWith(".md"))
      .map((name) => name.slice(0, -3));
    const articles = urls.filter((url) => url.loc.includes("/blog/"));
    expect(articles.map((url) => url.loc).sort()).toEqual(slugs.map((slug) => `${demo.url}/blog/${slug}`).sort());
    for (const url of articles) expect(url.lastmod, url.loc).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });
});
