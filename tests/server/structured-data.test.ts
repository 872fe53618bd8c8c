import sharp from "sharp";
import { structuredDataTest, type Outcome } from "structured-data-testing-tool";
import { Facebook, Google, Twitter } from "structured-data-testing-tool/presets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { languageSites, VIETNAMESE_SITE_NAME, vietnameseContentDir } from "../support/servers.mjs";
import { startSite } from "../support/site-process.mjs";

// What search engines and social networks read from a page, checked with structured-data-testing-tool
// (a third-party checker) and its Google, Twitter and Facebook presets, as they come: no failures. Then
// the share image itself, as a social network fetches it.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

let backend: Backend;
let demo: Site;
let hosted: Site;
let vietnamese: Site;
let japanese: Site;
const japaneseSite = languageSites.find((site) => site.lang === "ja")!;

async function check(site: Site, path: string): Promise<Outcome> {
  const html = await (await fetch(site.url + path)).text();
  try {
    return await structuredDataTest(html, { presets: [Google, Twitter, Facebook] });
  } catch (error) {
    // The tool rejects with the same result when a test fails.
    const outcome = (error as { res?: Outcome }).res;
    if (!outcome) throw error;
    return outcome;
  }
}

const describeFailures = (outcome: Outcome) =>
  outcome.failed.map((test) => `${test.group ?? ""} ${test.test}: ${test.error?.message ?? test.description ?? ""}`);

function meta(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key.replace(/:/g, ":")}" content="([^"]*)"`).exec(html)?.[1];
}

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  [demo, hosted, vietnamese, japanese] = await Promise.all([
    startSite({}),
    startSite({
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      SITE_NAME: "Chan Practice Center",
      SITE_PRODUCT: "Chan",
    }),
    startSite({
      SITE_LANGUAGE: "vi",
      SITE_NAME: VIETNAMESE_SITE_NAME,
      SITE_PRODUCT: "Tịnh Độ",
      CONTENT_DIR: vietnameseContentDir,
    }),
    startSite({
      SITE_LANGUAGE: "ja",
      SITE_NAME: japaneseSite.name,
      SITE_PRODUCT: japaneseSite.product,
      CONTENT_DIR: japaneseSite.contentDir,
    }),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([demo?.stop(), hosted?.stop(), vietnamese?.stop(), japanese?.stop()]);
  await backend?.close();
});

describe("structured-data-testing-tool, presets Google, Twitter and Facebook", () => {
  it.each([
    ["embedded", "/"],
    ["embedded", "/blog"],
    ["embedded", "/blog?page=2"],
    ["embedded", "/blog/how-to-start-zazen-at-home"],
    ["hosted", "/"],
    ["hosted", "/blog/backend-article-1"],
    ["hosted", "/blog/backend-article-4"],
    ["vietnamese", "/"],
    ["vietnamese", "/blog/niem-phat-moi-ngay"],
    ["japanese", "/"],
    ["japanese", `/blog/${japaneseSite.article}`],
  ])("%s site, %s: no failures", async (which, path) => {
    const outcome = await check({ embedded: demo, hosted, vietnamese, japanese }[which as "embedded"], path);
    expect(describeFailures(outcome)).toEqual([]);
    expect(outcome.passed.length).toBeGreaterThan(10);
    if (path.startsWith("/blog/")) {
      expect(outcome.schemas).toContain("BlogPosting");
      const passed = outcome.passed.map((test) => test.test);
      expect(passed).toContain("BlogPosting[0].author");
      expect(passed).toContain("BlogPosting[0].publisher.logo.url");
    }
  });
});

/** The page's BlogPosting, as its JSON-LD gives it. */
function blogPosting(html: string): Record<string, unknown> | undefined {
  for (const [, json] of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    const data = JSON.parse(json!) as Record<string, unknown>;
    if (data["@type"] === "BlogPosting") return data;
  }
  return undefined;
}

describe("reading time", () => {
  it("is in the Twitter card's first label and in the BlogPosting, as the header shows it", async () => {
    // 821 words of prose in this article: 4 minutes at 230 a minute.
    const html = await (await fetch(`${demo.url}/blog/how-to-start-zazen-at-home`)).text();
    expect(meta(html, "twitter:label1")).toBe("Reading time");
    expect(meta(html, "twitter:data1")).toBe("4 min read");
    expect(blogPosting(html)?.timeRequired).toBe("PT4M");
    expect(/<article[^>]*>[\s\S]*?<\/header>/.exec(html)?.[0]).toContain(">4 min read<");
    // A short article takes a minute.
    const short = await (await fetch(`${hosted.url}/blog/backend-article-2`)).text();
    expect(meta(short, "twitter:data1")).toBe("1 min read");
    expect(blogPosting(short)?.timeRequired).toBe("PT1M");
  });
});

describe("share images", () => {
  it("an article shows its own image, with its title as the alt text", async () => {
    const html = await (await fetch(`${hosted.url}/blog/backend-article-1`)).text();
    expect(meta(html, "og:image")).toBe("https://images.example.test/article-1.jpg");
    expect(meta(html, "twitter:image")).toBe("https://images.example.test/article-1.jpg");
    expect(meta(html, "og:image:alt")).toBe("Backend Article 1: Notes on Practice");
    expect(meta(html, "twitter:image:alt")).toBe("Backend Article 1: Notes on Practice");
    expect(meta(html, "og:locale")).toBe("en_US");
  });

  it("a page without a picture of its own shows the site's image: a 1200 x 630 PNG, one per site", async () => {
    const images: Buffer[] = [];
    for (const [site, path] of [
      [demo, "/"],
      [hosted, "/blog/backend-article-4"],
    ] as const) {
      const html = await (await fetch(site.url + path)).text();
      const url = meta(html, "og:image");
      expect(url, path).toBe(`${site.url}/share.png`);
      expect(meta(html, "twitter:image"), path).toBe(url);
      expect(meta(html, "og:image:alt"), path).toMatch(/ensō/);
      expect(meta(html, "og:image:width"), path).toBe("1200");
      const response = await fetch(url ?? "");
      expect(response.headers.get("content-type")).toBe("image/png");
      const image = Buffer.from(await response.arrayBuffer());
      expect(await sharp(image).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
      images.push(image);
    }
    expect(images[0]?.equals(images[1] ?? Buffer.alloc(0))).toBe(false);
  });

  it("the publisher's logo is a PNG of the size the structured data gives", async () => {
    const response = await fetch(`${demo.url}/logo.png`);
    expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({
      format: "png",
      width: 144,
      height: 144,
    });
  });
});
