import { readFileSync, statSync } from "node:fs";
import { parseFrontMatter } from "~/blog/front-matter";
import Parser from "rss-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, makeArticle, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The RSS feed as a feed reader reads it (rss-parser): every item with the title, link, date,
// description and picture a reader shows, and enclosures only with their real byte length and MIME type.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

const parser = new Parser<Record<string, never>, { "content:encoded"?: string }>();
let backend: Backend;
let hosted: Site;
let demo: Site;

async function readFeed(site: Site) {
  const response = await fetch(`${site.url}/blog/rss.xml`);
  expect(response.headers.get("content-type")).toContain("application/rss+xml");
  return parser.parseString(await response.text());
}

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  [hosted, demo] = await Promise.all([
    startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN }),
    startSite({}),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([hosted?.stop(), demo?.stop()]);
  await backend?.close();
});

describe("the RSS feed of the embedded articles", () => {
  it("is the same bytes on every request, dated by its newest article", async () => {
    const read = async () => (await fetch(`${demo.url}/blog/rss.xml`)).text();
    const first = await read();
    const second = await read();
    expect(second).toBe(first);
    const feed = await parser.parseString(first);
    expect(/<lastBuildDate>([^<]*)<\/lastBuildDate>/.exec(first)?.[1]).toBe(feed.items[0]?.pubDate);
  });

  it("gives each item its title, link, date, description and its image as an enclosure of the real size and type", async () => {
    const feed = await readFeed(demo);
    expect(feed.title).toBe("Zen Buddhism · Blog");
    expect(feed.link).toBe(`${demo.url}/blog`);
    expect(feed.image?.url).toBe(`${demo.url}/logo.png`);
    expect(feed.items).toHaveLength(10);
    let withImage = 0;
    for (const item of feed.items) {
      const slug = item.link?.split("/blog/")[1] ?? "";
      expect(item.link, slug).toBe(`${demo.url}/blog/${slug}`);
      expect(item.title, slug).toBeTruthy();
      expect(item.contentSnippet, slug).toBeTruthy();
      expect(Date.parse(item.pubDate ?? ""), slug).toBeGreaterThan(Date.UTC(2020, 0, 1));
      const image = parseFrontMatter(readFileSync(`content/blog/${slug}.md`, "utf8")).data.pinterestImageLink as
        string | undefined;
      if (!image) {
        expect(item.enclosure, slug).toBeUndefined();
        continue;
      }
      expect(item.enclosure, slug).toEqual({
        url: `${demo.url}${image}`,
        type: "image/jpeg",
        length: String(statSync(`public${image}`).size),
      });
      expect(item["content:encoded"], slug).toContain(`<img src="${demo.url}${image}"`);
      withImage += 1;
    }
    expect(withImage).toBeGreaterThan(5);
    const dates = feed.items.map((item) => Date.parse(item.pubDate ?? ""));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });
});

describe("the RSS feed of a hosted blog", () => {
  it("shows the remote images in the item's content, without an enclosure of unknown length", async () => {
    const feed = await readFeed(hosted);
    expect(feed.items).toHaveLength(10);
    for (const [index, item] of feed.items.entries()) {
      const article = makeArticle(index + 1);
      expect(item).toMatchObject({
        title: article.metaTitle,
        link: `${hosted.url}/blog/${article.slug}`,
        contentSnippet: expect.stringContaining(article.metaDescription),
        isoDate: `${article.date}T00:00:00.000Z`,
      });
      expect(item.enclosure, article.slug).toBeUndefined();
      if (article.pinterestImageLink)
        expect(item["content:encoded"], article.slug).toContain(`<img src="${article.pinterestImageLink}"`);
      else expect(item["content:encoded"] ?? "", article.slug).not.toContain("<img");
    }
  });
});
