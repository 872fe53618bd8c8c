import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// A page is its path and the parameters it reads (app/document/page-address.ts, docs/decisions/024): click ids,
// campaign tags and unknown parameters get the cached copy of the page without them, byte for byte. The
// data cache asks the backend on every render (CACHE_FRESH_SECONDS=0), so a render shows as a backend call.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;
let uncached: Awaited<ReturnType<typeof startSite>>;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function get(port: number, path: string, method = "GET"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    http
      .request({ host: "127.0.0.1", port, path, method, agent, headers: { "Accept-Encoding": "br" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject)
      .end();
  });
}

const detailsCalls = (slug: string) =>
  backend.calls().filter((call) => call.path === "/get_details" && call.query.slug === slug).length;
// By page: an article's render also reads list page 1 (read next), refreshed behind the reader's back.
const listCalls = (page: string) =>
  backend.calls().filter((call) => call.path === "/get_metainfo" && call.query.page === page).length;
const clickIds = (n: number) =>
  [
    `fbclid=IwAR${n}x_Zq-${n * 7919}`,
    `gclid=Cj0KCQ${n}`,
    `utm_source=newsletter&utm_medium=email&utm_campaign=c${n}`,
    `msclkid=${n}abc`,
    `x=${n}`,
  ][n % 5]!;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  const env = { BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, CACHE_FRESH_SECONDS: "0" };
  [site, uncached] = await Promise.all([
    startSite({ ...env, PAGE_CACHE_SECONDS: "60" }),
    startSite({ ...env, PAGE_CACHE_SECONDS: "0" }),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([site?.stop(), uncached?.stop()]);
  await backend?.close();
});

describe("a page is its path and the parameters it reads", () => {
  it("1,000 readers of an article, each with a unique click id or campaign tag, cost one render and get the same bytes", async () => {
    const slug = "backend-article-5";
    const before = detailsCalls(slug);
    const clean = await get(site.port, `/blog/${slug}`);
    expect(clean.status).toBe(200);
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, n) => get(site.port, `/blog/${slug}?${clickIds(n)}`)),
    );
    expect(detailsCalls(slug) - before, "renders (backend calls)").toBe(1);
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.headers.etag).toBe(clean.headers.etag);
      expect(reply.body.equals(clean.body)).toBe(true);
    }
  }, 30_000); // 1,000 requests: more than the default 5 s on a busy machine, though it is no timing test.

  it("the parameters never reach the page: without any cache, the page with them is the page without them", async () => {
    for (const path of ["/", "/blog", "/blog?page=2", "/blog/backend-article-3"]) {
      const clean = await get(uncached.port, path);
      const tagged = await get(
        uncached.port,
        `${path}${path.includes("?") ? "&" : "?"}fbclid=abc&utm_source=x&q=%3Cscript%3E`,
      );
      expect(tagged.status, path).toBe(200);
      expect(tagged.body.equals(clean.body), path).toBe(true);
    }
  });

  it("/blog?page=2 with a click id is page 2, from the same cached copy", async () => {
    const before = listCalls("2");
    const clean = await get(site.port, "/blog?page=2");
    const tagged = await Promise.all(
      ["fbclid=a", "utm_source=b&utm_medium=c", "gclid=d"].map((tag) => get(site.port, `/blog?${tag}&page=2`)),
    );
    expect(listCalls("2") - before).toBeLessThanOrEqual(1);
    for (const reply of tagged) expect(reply.body.equals(clean.body)).toBe(true);
    const { brotliDecompressSync } = await import("node:zlib");
    const html = brotliDecompressSync(clean.body).toString("utf8");
    expect(html).toContain("Backend Article 11:");
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/blog\?page=2"/);
  });

  it("odd page values, ?page=1, the sitemap parts, the feed and HEAD answer as before", async () => {
    const cases: [string, number, string?][] = [
      ["/blog?page=1&fbclid=x", 301, "/blog"],
      ["/blog?page=abc&utm_source=x", 301, "/blog"],
      ["/blog?page=2&page=3", 301, "/blog"],
      ["/blog?fbclid=x&page", 301, "/blog"],
      ["/blog?page=99999", 404],
      ["/blog?p%61ge=2", 200],
      ["/sitemap-articles.xml?part=1&utm_source=x", 200],
      ["/sitemap-articles.xml?fbclid=x", 404],
      ["/blog/rss.xml?fbclid=x", 200],
      ["/no/such/page?fbclid=x", 404],
    ];
    for (const [path, status, location] of cases) {
      const reply = await get(site.port, path);
      expect(reply.status, path).toBe(status);
      if (location) expect(reply.headers.location, path).toBe(location);
    }
    const head = await get(site.port, "/blog/backend-article-5?fbclid=head", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});
