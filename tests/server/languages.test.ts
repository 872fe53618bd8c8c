import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languageSites, VIETNAMESE_SITE_NAME, vietnameseContentDir } from "../support/servers.mjs";
import { startSite, startSiteExpectingExit } from "../support/site-process.mjs";

// A site in its language, as crawlers, feed readers and social networks read it (the browser tests read
// what people see): <html lang>, og:locale, inLanguage, the titles and descriptions the site writes, the
// feed, the dates and the share image; and a SITE_LANGUAGE with no catalog stops the start.

type Site = Awaited<ReturnType<typeof startSite>>;
type Catalog = Record<string, string>;

const catalog = (lang: string) => JSON.parse(readFileSync(`locales/${lang}.json`, "utf8")) as Catalog;
const japanese = languageSites.find((site) => site.lang === "ja")!;
const scratch = mkdtempSync(path.join(tmpdir(), "languages-"));
let sites: Record<"en" | "vi" | "ja", Site>;

const decode = (text: string) => text.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const meta = (html: string, key: string) => decode(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? "");
const title = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);
const page = async (site: Site, pagePath: string) => (await fetch(site.url + pagePath)).text();

beforeAll(async () => {
  const images = path.join(scratch, "images");
  const [en, vi, ja] = await Promise.all([
    startSite({ IMAGE_CACHE_DIR: images }),
    startSite({ SITE_LANGUAGE: "vi", SITE_PRODUCT: "Tịnh Độ", SITE_NAME: VIETNAMESE_SITE_NAME, CONTENT_DIR: vietnameseContentDir, IMAGE_CACHE_DIR: images }),
    startSite({ SITE_LANGUAGE: "ja", SITE_PRODUCT: japanese.product, SITE_NAME: japanese.name, CONTENT_DIR: japanese.contentDir, IMAGE_CACHE_DIR: images }),
  ]);
  sites = { en, vi, ja };
}, 30_000);

afterAll(async () => {
  await Promise.all(Object.values(sites ?? {}).map((site) => site.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

describe("pages in the site's language", () => {
  it.each([
    ["en", "en_US"],
    ["vi", "vi_VN"],
    ["ja", "ja_JP"],
  ] as const)("%s: <html lang> and dir, og:locale, and inLanguage in the JSON-LD", async (lang, ogLocale) => {
    const home = await page(sites[lang], "/");
    expect(home).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lang}" dir="ltr">`));
    expect(meta(home, "og:locale")).toBe(ogLocale);
    expect(jsonLd(home).find((data) => data["@type"] === "WebSite")?.inLanguage).toBe(lang);
    const [slug] = /href="\/blog\/(?!rss\.xml)([^"]+)"/.exec(await page(sites[lang], "/blog"))!.slice(1);
    const article = await page(sites[lang], `/blog/${slug}`);
    expect(jsonLd(article).find((data) => data["@type"] === "BlogPosting")?.inLanguage).toBe(lang);
  });

  it("titles, descriptions, breadcrumbs and the share image's alt text are the site's own words", async () => {
    const vi = catalog("vi");
    const home = await page(sites.vi, "/");
    expect(title(home)).toBe(`${VIETNAMESE_SITE_NAME} · ${vi["hero.title"]!.replace("{product}", "Tịnh Độ")}`);
    expect(meta(home, "description")).toBe(vi["meta.homeDescription"]!.replace("{product}", "Tịnh Độ"));
    expect(meta(home, "og:image:alt")).toBe(vi["meta.shareImageAlt"]!.replace("{site}", VIETNAMESE_SITE_NAME));
    expect(home).toContain(`<link rel="alternate" type="application/rss+xml" title="${vi["feed.linkTitle"]}" href="/blog/rss.xml"/>`);
    const list = await page(sites.vi, "/blog");
    expect(title(list)).toBe(`${vi["nav.blog"]} · ${VIETNAMESE_SITE_NAME}`);
    const crumbs = jsonLd(list).find((data) => data["@type"] === "BreadcrumbList")?.itemListElement as { name: string }[];
    expect(crumbs.map((crumb) => crumb.name)).toEqual([vi["nav.home"], vi["nav.blog"]]);
    expect(title(await page(sites.vi, "/no/such/page"))).toBe(vi["meta.pageNotFound"]);
    expect(title(await page(sites.vi, "/blog/no-such-article"))).toBe(`${vi["article.notFoundTitle"]} · ${VIETNAMESE_SITE_NAME}`);
    // English stays as the spec words it.
    expect(title(await page(sites.en, "/"))).toBe("Zen Buddhism · Discover the Ancient Wisdom of Zen Buddhism");
  });

  it("sends the browser its site's catalog only", async () => {
    const messages = (lang: string) => Object.values(catalog(lang)).filter((message): message is string => typeof message === "string" && message.length > 20);
    const [vi, ja, en] = await Promise.all([page(sites.vi, "/"), page(sites.ja, "/"), page(sites.en, "/")]);
    // Every message of its own language is there (the data after the document holds the catalog) …
    expect(messages("vi").filter((message) => !vi.includes(JSON.stringify(message).slice(1, -1)))).toEqual([]);
    // … and none of another's.
    for (const [html, others] of [[vi, ["en", "ja"]], [ja, ["en", "vi"]], [en, ["vi", "ja"]]] as const) {
      for (const other of others) expect(messages(other).filter((message) => html.includes(message))).toEqual([]);
    }
  });

  it("dates articles in the language, on the day written", async () => {
    const published = (html: string) => decode(/<time dateTime="[^"]*">([^<]*)<\/time>/.exec(html)?.[1] ?? "");
    expect(published(await page(sites.vi, "/blog/niem-phat-moi-ngay"))).toBe("14 tháng 9, 2024");
    expect(published(await page(sites.ja, `/blog/${japanese.article}`))).toBe("2024年5月12日");
    expect(published(await page(sites.en, "/blog/beginners-mind"))).toBe("August 6, 2024");
  });

  it("the feed names its language, and its title and description are the site's words", async () => {
    const ja = catalog("ja");
    const feed = await page(sites.ja, "/blog/rss.xml");
    expect(feed).toContain("<language>ja</language>");
    expect(feed).toContain(`<title>${japanese.name} · ${ja["nav.blog"]}</title>`);
    expect(feed).toContain(`<description>${ja["feed.description"]!.replace("{product}", japanese.product)}</description>`);
    expect(await page(sites.en, "/blog/rss.xml")).toContain("<language>en</language>");
  });

  it("the share image carries the site's own tagline", async () => {
    const png = async (site: Site) => Buffer.from(await (await fetch(`${site.url}/share.png`)).arrayBuffer());
    const [en, ja] = await Promise.all([png(sites.en), png(sites.ja)]);
    expect(await sharp(ja).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    expect(ja.equals(en)).toBe(false);
  });
});

describe("SITE_LANGUAGE", () => {
  it("with no catalog, stops the start with one clear line, like any wrong setting", async () => {
    const { code, output } = await startSiteExpectingExit({ SITE_LANGUAGE: "fr" });
    expect(code, output).toBe(1);
    expect(output).toMatch(/^ {2}- SITE_LANGUAGE has no catalog for "fr" in locales\/ \(there are: de, en, es, ja, ko, th, vi, zh-Hant\)$/m);
  }, 30_000);

  it("in a sites file, is each site's own, and a wrong one names the site", async () => {
    const file = path.join(scratch, "sites.yaml");
    writeFileSync(file, "sites:\n  - hosts: [vi.example.org]\n    SITE_LANGUAGE: vi\n  - hosts: [kl.example.org]\n    SITE_LANGUAGE: tlh\n");
    const { code, output } = await startSiteExpectingExit({ SITES_FILE: file });
    expect(code, output).toBe(1);
    expect(output).toContain('  - site kl.example.org: SITE_LANGUAGE has no catalog for "tlh"');
    expect(output).not.toContain("vi.example.org");
  }, 30_000);
});
