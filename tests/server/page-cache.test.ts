import http from "node:http";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The short-lived page cache in front of the app (server/page-cache.mjs): repeats are served from memory,
// each with its own CSP nonce, and only what a shared cache could store is kept.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 12 });
  site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "30" });
}, 30_000);

afterAll(async () => {
  await site?.stop();
  await backend?.close();
});

async function get(path: string) {
  const response = await fetch(`${site.url}${path}`, { redirect: "manual" });
  const body = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  return { response, body, hit: response.headers.get("x-page-cache") === "hit", nonce: /'nonce-([^']+)'/.exec(csp)?.[1] };
}

/** fetch() will not send another Host header; node:http will. */
async function getWithHost(path: string, host: string): Promise<{ status: number; body: string; hit: boolean }> {
  const { status, headers, body } = await raw("GET", path, { Host: `${host}:${site.port}` });
  return { status, body: body.toString("utf8"), hit: headers["x-page-cache"] === "hit" };
}

/** A request as node:http sends it: no Accept-Encoding unless given (fetch always sends one). */
function raw(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request({ host: "127.0.0.1", port: site.port, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

describe("the page cache", () => {
  it("answers a repeated page from memory with a fresh nonce in the header and every script", async () => {
    const first = await get("/blog/backend-article-3");
    const second = await get("/blog/backend-article-3");
    expect(first.hit).toBe(false);
    expect(second.hit).toBe(true);
    expect(second.response.status).toBe(200);
    expect(second.nonce).toBeTruthy();
    expect(second.nonce).not.toBe(first.nonce);
    const scriptNonces = [...second.body.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([second.nonce]));
    expect(second.body.includes(first.nonce!)).toBe(false);
    // The same page otherwise, byte for byte.
    expect(second.body.replaceAll(second.nonce!, "N")).toBe(first.body.replaceAll(first.nonce!, "N"));
    expect(second.response.headers.get("cache-control")).toBe(first.response.headers.get("cache-control"));
    expect(second.response.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("answers a stored page with its length, so the client need not read chunks, and HEAD with no body", async () => {
    await raw("GET", "/blog/backend-article-5");
    const hit = await raw("GET", "/blog/backend-article-5");
    expect(hit.headers["x-page-cache"]).toBe("hit");
    expect(hit.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(hit.headers["content-length"])).toBe(hit.body.length);
    expect(hit.body.toString("utf8")).toContain("</html>");
    const head = await raw("HEAD", "/blog/backend-article-5");
    expect(head.headers["x-page-cache"]).toBe("hit");
    expect(head.headers["content-length"]).toBe(hit.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });

  it("answers a client that accepts gzip with the stored page's gzip copy and its fresh nonce", async () => {
    const plain = await raw("GET", "/blog/backend-article-6");
    const browser = { "Accept-Encoding": "gzip, deflate, br, zstd" };
    const [first, second] = [await raw("GET", "/blog/backend-article-6", browser), await raw("GET", "/blog/backend-article-6", browser)];
    const nonce = (html: string) => /nonce="([^"]+)"/.exec(html)![1]!;
    const pages = [first, second].map((hit) => {
      expect(hit.headers["x-page-cache"]).toBe("hit");
      expect(hit.headers["content-encoding"]).toBe("gzip");
      expect(hit.headers.vary).toBe("Accept-Encoding");
      expect(Number(hit.headers["content-length"])).toBe(hit.body.length);
      return gunzipSync(hit.body).toString("utf8");
    });
    expect(nonce(pages[0]!)).not.toBe(nonce(pages[1]!));
    const text = plain.body.toString("utf8");
    for (const page of pages) expect(page.replaceAll(nonce(page), "N")).toBe(text.replaceAll(nonce(text), "N"));
  });

  it("compresses a page rendered anew as a whole, not in pieces flushed one by one", async () => {
    const fresh = await raw("GET", "/blog/backend-article-9", { "Accept-Encoding": "gzip" });
    expect(fresh.headers["x-page-cache"]).toBeUndefined();
    expect(fresh.headers["content-encoding"]).toBe("gzip");
    const page = gunzipSync(fresh.body);
    expect(page.toString("utf8")).toContain("</html>");
    expect(fresh.body.length).toBeLessThan(gzipSync(page).length * 1.1);
  });

  it("gives the stored gzip copy only to a client that accepts gzip, and says the answer varies", async () => {
    await raw("GET", "/blog/backend-article-10");
    const cases: [string | undefined, string | undefined][] = [
      ["gzip;q=0, deflate", "deflate"],
      ["identity", undefined],
      [undefined, undefined],
      ["*", "gzip"],
      ["GZIP", "gzip"],
    ];
    for (const [accept, expected] of cases) {
      const hit = await raw("GET", "/blog/backend-article-10", accept === undefined ? {} : { "Accept-Encoding": accept });
      expect(hit.headers["x-page-cache"], accept).toBe("hit");
      expect(hit.headers["content-encoding"], accept).toBe(expected);
      expect(hit.headers.vary, accept).toBe("Accept-Encoding");
    }
    const get = await raw("GET", "/blog/backend-article-10", { "Accept-Encoding": "gzip" });
    const head = await raw("HEAD", "/blog/backend-article-10", { "Accept-Encoding": "gzip" });
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });

  it("leaves other encodings to the compression middleware", async () => {
    await raw("GET", "/blog/backend-article-8");
    const hit = await raw("GET", "/blog/backend-article-8", { "Accept-Encoding": "br" });
    expect(hit.headers["x-page-cache"]).toBe("hit");
    expect(hit.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(hit.body).toString("utf8")).toContain("</html>");
  });

  it("logs a stored page's answer like any other", async () => {
    await raw("GET", "/blog/backend-article-7");
    const { body } = await raw("GET", "/blog/backend-article-7");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(site.output()).toContain(`GET /blog/backend-article-7 200 ${body.length} - `);
  });

  it("renders the page once for many readers", async () => {
    backend.state.calls = [];
    await get("/blog/backend-article-4");
    const before = backend.calls().length;
    const repeats = await Promise.all(Array.from({ length: 20 }, () => get("/blog/backend-article-4")));
    expect(repeats.every((reply) => reply.hit && reply.response.status === 200)).toBe(true);
    expect(backend.calls().length).toBe(before);
  });

  it("keeps no error page, no missing page and no client-side data request", async () => {
    for (const path of ["/blog/fault-500", "/blog/no-such-article", "/no/such/page", "/blog/backend-article-3.data"]) {
      await get(path);
      const again = await get(path);
      expect(again.hit, path).toBe(false);
    }
  });

  it("keeps pages apart by host", async () => {
    const first = await getWithHost("/blog", "one.example.test");
    const other = await getWithHost("/blog", "two.example.test");
    expect(first.status).toBe(200);
    expect(other.hit).toBe(false);
    expect(other.body).toContain("http://two.example.test");
    expect(other.body).not.toContain("one.example.test");
    expect((await getWithHost("/blog", "one.example.test")).hit).toBe(true);
  });
});

describe("with PAGE_CACHE_SECONDS=0", () => {
  it("every page is rendered anew", async () => {
    const uncached = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "0" });
    try {
      await fetch(`${uncached.url}/blog`);
      const again = await fetch(`${uncached.url}/blog`);
      expect(again.status).toBe(200);
      expect(again.headers.get("x-page-cache")).toBeNull();
    } finally {
      await uncached.stop();
    }
  }, 30_000);
});
