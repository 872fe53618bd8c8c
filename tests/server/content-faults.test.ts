import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isPossibleSlug } from "~/blog/slug";
import { documentPart } from "../support/document.mjs";
import { serverRuns } from "../support/server-runs.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startFakeImageHost } from "../support/fake-image-host.mjs";
import { startSite, waitForOutput } from "../support/site-process.mjs";

// Faults of one entry or one field in the backend's replies, through the whole production server: each
// costs that entry or field, never the page. The unit tests (blog-schema, lib, http-source) cover the
// rules on their own.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let images: Awaited<ReturnType<typeof startFakeImageHost>>;
let site: Awaited<ReturnType<typeof startSite>>;
let cacheDir: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** A link on the image host 20 KB long, and one of exactly the longest length kept (2,048 bytes). */
const hugeLink = () => `${images.url}/pin/${"h".repeat(20_000)}.jpg`;
const longestLink = () => `${images.url}/pin/${"l".repeat(2048 - `${images.url}/pin/.jpg`.length)}.jpg`;

function article(slug: string, title: string, fields: Record<string, unknown> = {}) {
  return {
    id: slug,
    slug,
    metaTitle: title,
    metaDescription: `About ${title}.`,
    date: "2024-05-01",
    pinterestImageLink: null,
    youtubeShortsUrl: null,
    shortTailKeywords: null,
    longTailKeywords: null,
    blog: `## ${title}\n\nA paragraph.`,
    ...fields,
  };
}

/** One list page of articles (the fake backend's list is made from them), each with one fault or none. */
const content = () => [
  article("plain", "A plain article"),
  article("a%2Fb", "Slug with a literal percent-2F"),
  article("a/b", "Slug with a slash"),
  article("far-date", "A date out of range", { date: "-271821-04-20" }),
  article("foreign-video", "A video on another host", {
    youtubeShortsUrl: "https://evil.example/?u=youtube.com/shorts/abc",
  }),
  article("real-video", "A real short", { youtubeShortsUrl: "https://m.youtube.com/shorts/abc_DEF-123?feature=share" }),
  article("huge-image", "A 20 KB image link", { pinterestImageLink: hugeLink() }),
  article("longest-image", "The longest image link", { pinterestImageLink: longestLink() }),
];

type Reply = { status: number; body: string };

/** A GET as sent (no normalisation of the path), with another Host when given: each host has its own cached list. */
function get(pagePath: string, host?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    http
      .request(
        { host: "127.0.0.1", port: site.port, path: pagePath, agent, headers: host ? { Host: host } : {} },
        (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: body.includes("</html>") ? documentPart(body) : body }),
          );
        },
      )
      .on("error", reject)
      .end();
  });
}

/** The article's own title, as its heading: other titles are on the page too, in Read next. */
const heading = (body: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(body)?.[1];

const detailsCalls = () => backend.calls().filter((call) => call.path === "/get_details");

beforeAll(async () => {
  images = await startFakeImageHost();
  backend = await startFakeBackend({ content: content() });
  cacheDir = mkdtempSync(path.join(tmpdir(), "content-faults-images-"));
  site = await startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    PAGE_CACHE_SECONDS: "0",
    IMAGE_HOSTS: images.host,
    IMAGE_CACHE_DIR: cacheDir,
  });
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await Promise.all([site?.stop(), backend?.close(), images?.close()]);
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

beforeEach(() => {
  backend.state.listBody = undefined;
  backend.state.bom = false;
});

describe("a list page with entries that do not fit", () => {
  const goodEntry = fc
    .nat(1000)
    .map((n) => ({ id: n, slug: `good-${n}`, metaTitle: `Good entry ${n}`, metaDescription: "d" }));
  const badEntry = fc.oneof(
    fc.constantFrom("", "  ").map((slug) => ({ id: "blank", slug, metaTitle: "Bad: blank slug" })),
    fc
      .integer({ min: 301, max: 400 })
      .map((length) => ({ id: "long", slug: "s".repeat(length), metaTitle: "Bad: long slug" })),
    fc.integer().map((metaTitle) => ({ id: "numeric", slug: "bad-numeric-title", metaTitle })),
    fc.constantFrom(null, "entry", 7),
  );
  let run = 0;

  it("shows the good entries with 200 and leaves out the bad ones, with one warning per reply", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            goodEntry.map((entry) => ({ good: true, entry })),
            badEntry.map((entry) => ({ good: false, entry })),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        async (entries) => {
          // A host of its own per case: the site keeps each host's list apart.
          const host = `bad-entries-${(run += 1)}.example`;
          backend.state.listBody = { blogs: entries.map((item) => item.entry), total: entries.length };
          const from = site.output().length;
          const page = await get("/blog", host);
          expect(page.status).toBe(200);
          const good = [
            ...new Set(entries.filter((item) => item.good).map((item) => (item.entry as { slug: string }).slug)),
          ];
          const linked = [
            ...new Set([...page.body.matchAll(/href="\/blog\/([^"?]+)"/g)].map((match) => match[1])),
          ].filter((slug) => slug !== "rss.xml");
          expect(linked.sort()).toEqual(good.sort());
          expect(page.body).not.toContain("Bad:");
          const badCount = entries.filter((item) => !item.good).length;
          if (badCount) {
            await waitForOutput(site.output, new RegExp(`Blog list "${host}" page 1: left out ${badCount} entr`), {
              from,
            });
            expect(site.output().slice(from).split(host).length - 1).toBe(1);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it("the cases found: a blank slug, a 300-character slug and a numeric title cost their own cards only", async () => {
    backend.state.listBody = {
      blogs: [
        { id: 1, slug: "kept-one", metaTitle: "Kept one" },
        { id: 2, slug: "", metaTitle: "Bad: blank slug" },
        { id: 3, slug: "x".repeat(301), metaTitle: "Bad: long slug" },
        { id: 4, slug: "numeric", metaTitle: 42 },
        { id: 5, slug: "kept-two", metaTitle: "Kept two" },
      ],
      total: 5,
    };
    const page = await get("/blog", "found-cases.example");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Kept one");
    expect(page.body).toContain("Kept two");
    expect(page.body).not.toContain("Bad:");
  });
});

describe("a list page of 5,000 entries", () => {
  const blogs = Array.from({ length: 5000 }, (_, index) => ({
    id: index,
    slug: `many-${index}`,
    metaTitle: `Many ${index}`,
    metaDescription: "d",
  }));

  it("shows the spec's page of ten", async () => {
    backend.state.listBody = { blogs, total: 5000 };
    const page = await get("/blog", "many.example");
    expect(page.status).toBe(200);
    const linked = new Set([...page.body.matchAll(/href="\/blog\/(many-\d+)"/g)].map((match) => match[1]));
    expect([...linked]).toEqual(blogs.slice(0, 10).map((blog) => blog.slug));
  });

  it("the feed asks for ten articles' details, not 5,000", async () => {
    backend.state.listBody = { blogs, total: 5000 };
    const before = detailsCalls().length;
    const feed = await get("/blog/rss.xml", "many-feed.example");
    expect(feed.status).toBe(200);
    expect(detailsCalls().length - before).toBeLessThanOrEqual(10);
  }, 30_000);
});

describe("a reply that starts with a UTF-8 byte order mark", () => {
  it("is read: the list and the article show", async () => {
    backend.state.bom = true;
    const list = await get("/blog", "bom.example");
    expect(list.status).toBe(200);
    expect(list.body).toContain("A plain article");
    const page = await get("/blog/plain", "bom.example");
    expect(page.status).toBe(200);
    expect(heading(page.body)).toBe("A plain article");
  });
});

describe("the slug that reaches the backend", () => {
  it("a literal %2F stays one: /blog/a%252Fb asks for a%2Fb, /blog/a%2Fb for a/b, each its own article", async () => {
    const before = detailsCalls().length;
    const literal = await get("/blog/a%252Fb");
    expect(literal.status).toBe(200);
    expect(heading(literal.body)).toBe("Slug with a literal percent-2F");
    const slash = await get("/blog/a%2Fb");
    expect(slash.status).toBe(200);
    expect(heading(slash.body)).toBe("Slug with a slash");
    expect(
      detailsCalls()
        .slice(before)
        .map((call) => call.query.slug),
    ).toEqual(["a%2Fb", "a/b"]);
  });

  it("every card of the list leads to its own article", async () => {
    const list = await get("/blog", "cards.example");
    const links = [...list.body.matchAll(/<a[^>]+href="(\/blog\/[^"?]+)"[^>]*>[\s\S]*?<h2[^>]*>([^<]+)<\/h2>/g)];
    expect(links.length).toBe(content().length);
    for (const [, href, title] of links) {
      const page = await get(href!, "cards.example");
      expect(page.status, href).toBe(200);
      expect(heading(page.body), href).toBe(title);
    }
  }, 30_000);

  it("any slug reaches the backend exactly as the list's link wrote it, or is a 404 without a call", async () => {
    // Slugs asked for before (by the tests above) may be answered from the site's cache.
    const asked = new Set(detailsCalls().map((call) => call.query.slug));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
          fc.constantFrom("a%2Fb", "%2F", "%252F", "%", "a%25b", ".", "..", " ", "x".repeat(301)),
        ),
        async (slug) => {
          const callsFor = () => detailsCalls().filter((call) => call.query.slug === slug).length;
          const before = callsFor();
          const beforeAll = detailsCalls().length;
          const page = await get(`/blog/${encodeURIComponent(slug)}`);
          if (!isPossibleSlug(slug)) {
            // `/blog/.` and `/blog/..` are redirected to the list and the home page; any other such slug is a 404.
            expect(page.status, slug).toBe(slug === "." || slug === ".." ? 301 : 404);
            expect(detailsCalls().length, slug).toBe(beforeAll);
            return;
          }
          expect([200, 404], slug).toContain(page.status);
          // Asked once, with this very slug; a slug asked before may be answered from the cache.
          if (!asked.has(slug)) expect(callsFor(), slug).toBe(before + 1);
          expect(detailsCalls().length - beforeAll, slug).toBeLessThanOrEqual(1);
          asked.add(slug);
        },
      ),
      { numRuns: serverRuns(300) },
    );
  }, 60_000);
});

describe("a video link", () => {
  it("on another host that mentions youtube.com/shorts/ID is not embedded", async () => {
    const page = await get("/blog/foreign-video");
    expect(page.status).toBe(200);
    expect(page.body).toContain("A video on another host");
    expect(page.body).not.toContain("youtube-nocookie.com");
    expect(page.body).not.toContain("<iframe");
  });

  it("on the provider's own host is embedded", async () => {
    const page = await get("/blog/real-video");
    expect(page.status).toBe(200);
    expect(page.body).toContain("https://www.youtube-nocookie.com/embed/abc_DEF-123?");
  });
});

describe("a date out of range", () => {
  it("is shown nowhere: not on the page, not in its structured data, the feed or the sitemap", async () => {
    const page = await get("/blog/far-date");
    expect(page.status).toBe(200);
    expect(page.body).toContain("A date out of range");
    expect(page.body).not.toContain("Published on");
    const jsonLd = [...page.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) =>
      JSON.parse(match[1]!),
    );
    const posting = jsonLd.flatMap((item) => item["@graph"] ?? [item]).find((item) => item["@type"] === "BlogPosting");
    expect(posting).toBeDefined();
    expect(posting.datePublished).toBeUndefined();
    expect(posting.dateModified).toBeUndefined();
    const feed = await get("/blog/rss.xml");
    const sitemap = await get("/sitemap-articles.xml?part=1");
    expect(feed.status).toBe(200);
    expect(sitemap.status).toBe(200);
    expect(feed.body).toContain("/blog/far-date");
    expect(sitemap.body).toContain("/blog/far-date</loc>");
    for (const [name, body] of [
      ["page", page.body],
      ["feed", feed.body],
      ["sitemap", sitemap.body],
    ]) {
      expect(body, name).not.toMatch(/271821|271822/);
    }
    expect(sitemap.body).not.toMatch(/far-date<\/loc>\s*<lastmod>/);
  });
});

describe("an image link of 20 KB", () => {
  /** Every address of an image a page offers: its copies (src, srcset) and its share image. */
  function imageAddresses(body: string): string[] {
    const copies = [...body.matchAll(/\/img\/[^"\s,]+/g)].map((match) => match[0].replaceAll("&amp;", "&"));
    const shared = [...body.matchAll(/<meta property="og:image" content="([^"]+)"/g)].map((match) =>
      match[1]!.replaceAll("&amp;", "&"),
    );
    return [...new Set([...copies, ...shared])];
  }

  it.each(["/blog", "/blog/huge-image", "/blog/longest-image"])(
    "every image address on %s can be requested",
    async (pagePath) => {
      const page = await get(pagePath);
      expect(page.status).toBe(200);
      const addresses = imageAddresses(page.body);
      expect(addresses.length).toBeGreaterThan(0);
      for (const address of addresses) {
        const answer = await fetch(address.startsWith("/") ? `${site.url}${address}` : address);
        await answer.arrayBuffer();
        expect([431, 414], address.slice(0, 120)).not.toContain(answer.status);
        expect(answer.status, address.slice(0, 120)).toBeLessThan(400);
      }
    },
    60_000,
  );

  it("counts as no image, while one of the longest length kept shows", async () => {
    const huge = await get("/blog/huge-image");
    expect(huge.body).not.toContain(Buffer.from(hugeLink()).toString("base64url").slice(0, 200));
    expect(huge.body).not.toContain("View on Pinterest");
    const longest = await get("/blog/longest-image");
    expect(longest.body).toContain(Buffer.from(longestLink()).toString("base64url"));
  });
});
