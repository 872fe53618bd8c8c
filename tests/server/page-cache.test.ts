import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The page cache in front of the app (server/page-cache.ts): every page is one set of bytes with a strong
// ETag, answered compressed for the reader; repeats come from memory, and only what a shared cache could
// keep is kept. The data cache is made to ask the backend on every render (CACHE_FRESH_SECONDS=0), so a
// render shows up as a backend call and an answer from memory as none.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;

const hosted = (extra: Record<string, string> = {}) => ({
  BLOG_API_URL: backend.url,
  BLOG_API_TOKEN: FAKE_TOKEN,
  CACHE_FRESH_SECONDS: "0",
  ...extra,
});

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 12 });
  site = await startSite(hosted({ PAGE_CACHE_SECONDS: "30" }));
}, 30_000);

afterAll(async () => {
  await site?.stop();
  await backend?.close();
});

/** A request as node:http sends it: exactly the headers given (fetch adds its own Accept-Encoding). */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request({ host: "127.0.0.1", port, method, path, headers }, (response) => {
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
const get = (path: string, headers: Record<string, string> = {}) => raw(site.port, "GET", path, headers);

/** Backend calls made while `action` runs (the background refresh of a render may land a moment later). */
async function backendCallsDuring(action: () => Promise<unknown>) {
  const before = backend.calls().length;
  await action();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return backend.calls().length - before;
}

describe("pages", () => {
  it("are the same bytes in every encoding, each encoding with its own strong ETag", async () => {
    const plain = await get("/blog/backend-article-3");
    const gzip = await get("/blog/backend-article-3", { "Accept-Encoding": "gzip" });
    const br = await get("/blog/backend-article-3", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const tags = [plain, gzip, br].map((reply) => reply.headers.etag ?? "");
    for (const tag of tags) expect(tag).toMatch(/^"[\w-]+"$/);
    expect(new Set(tags).size).toBe(3);
    for (const reply of [plain, gzip, br]) {
      expect(reply.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(reply.headers["content-length"])).toBe(reply.body.length);
    }
  });

  it("answer If-None-Match with 304 and no body, and a changed tag with the page", async () => {
    const first = await get("/blog", { "Accept-Encoding": "gzip" });
    const again = await get("/blog", { "Accept-Encoding": "gzip", "If-None-Match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const stale = await get("/blog", { "Accept-Encoding": "gzip", "If-None-Match": '"something-else"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(first.body)).toBe(true);
  });

  it("are answered from memory on a repeat: same bytes, same headers, no render", async () => {
    const first = await get("/blog/backend-article-5", { "Accept-Encoding": "br" });
    let repeat = first;
    expect(
      await backendCallsDuring(
        async () => (repeat = await get("/blog/backend-article-5", { "Accept-Encoding": "br" })),
      ),
    ).toBe(0);
    expect(repeat.body.equals(first.body)).toBe(true);
    for (const name of ["content-security-policy", "cache-control", "etag", "content-type", "content-encoding"]) {
      expect(repeat.headers[name], name).toBe(first.headers[name]);
    }
  });

  it("answer HEAD with the headers and length of the page, and no body", async () => {
    const page = await get("/blog/backend-article-6");
    const head = await raw(site.port, "HEAD", "/blog/backend-article-6");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBe(page.body.length);
    expect(head.headers.etag).toBe(page.headers.etag);
  });

  it("keeps no error page, no missing page and no client-side data request", async () => {
    for (const path of ["/blog/fault-500", "/blog/no-such-article", "/blog/backend-article-3.data"]) {
      await get(path);
      expect(await backendCallsDuring(() => get(path)), path).toBeGreaterThan(0);
    }
  });

  it("keeps pages apart by host", async () => {
    const one = await get("/blog", { Host: `one.example.test:${site.port}` });
    const other = await get("/blog", { Host: `two.example.test:${site.port}` });
    expect(one.status).toBe(200);
    expect(other.body.toString()).toContain("http://two.example.test");
    expect(other.body.toString()).not.toContain("one.example.test");
  });
});

describe("with PAGE_CACHE_SECONDS=0", () => {
  it("every page is rendered anew, still with its ETag and 304", async () => {
    const uncached = await startSite(hosted({ PAGE_CACHE_SECONDS: "0" }));
    try {
      const first = await raw(uncached.port, "GET", "/blog", { "Accept-Encoding": "gzip" });
      expect(first.headers["content-encoding"]).toBe("gzip");
      expect(
        await backendCallsDuring(() => raw(uncached.port, "GET", "/blog", { "Accept-Encoding": "gzip" })),
      ).toBeGreaterThan(0);
      const again = await raw(uncached.port, "GET", "/blog", {
        "Accept-Encoding": "gzip",
        "If-None-Match": first.headers.etag!,
      });
      expect(again.status).toBe(304);
    } finally {
      await uncached.stop();
    }
  }, 30_000);
});
