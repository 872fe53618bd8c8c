import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlogUnavailableError } from "~/blog/errors.server";
import { createHttpSource } from "~/blog/http-source.server";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { serverRuns } from "../support/server-runs.mjs";
import { startSite } from "../support/site-process.mjs";

// Property-based tests over what a visitor (or an attacker) controls: paths, slugs, ?page= values and
// Host headers, and over what the backend may send back. 10,500 generated cases a run.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

type Reply = { status: number; body: string };

function get(path: string, headers: Record<string, string> = {}): Promise<Reply | "client-refused"> {
  return new Promise((resolve, reject) => {
    let request: http.ClientRequest;
    try {
      request = http.request({ host: "127.0.0.1", port: site.port, path, headers, agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
    } catch {
      // Node's own client refuses some inputs (e.g. control characters in a header): nothing to send.
      return resolve("client-refused");
    }
    request.on("error", reject);
    request.end();
  });
}

function request(method: string, path: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .request({ host: "127.0.0.1", port: site.port, path, method, agent }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }));
      })
      .on("error", reject)
      .end();
  });
}

/**
 * What must hold for every answer: no 5xx, no stack trace, no echo of raw markup. `usual` is the same kind
 * of page for a harmless input: a short input such as `"app` is found in every page (`"application/ld+json"`),
 * which is no echo.
 */
function expectSafe(reply: Reply | "client-refused", input: string, usual: string, allow503 = false) {
  if (reply === "client-refused") return;
  if (!(allow503 && reply.status === 503)) expect(reply.status, input).toBeLessThan(500);
  expect(reply.body).not.toMatch(/\n\s+at [\w.<>]+ \(/);
  if (/[<>"]/.test(input) && input.length > 3)
    expect(reply.body.includes(input) && !usual.includes(input), input).toBe(false);
}

/** The body of a page, for a harmless input. */
async function usualPage(path: string, headers: Record<string, string> = {}) {
  const reply = await get(path, headers);
  if (reply === "client-refused") throw new Error(`the client refused ${path}`);
  return reply.body;
}

const markup = fc.constantFrom(
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "</title><svg onload=alert(1)>",
  "'\"<>",
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }), markup);

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN });
}, 30_000);

afterAll(async () => {
  agent.destroy();
  await site?.stop();
  await backend?.close();
});

describe("hostile input never breaks the site", () => {
  it("any path", async () => {
    const usual = await usualPage("/no-such-page-harmless");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webPath(),
          text.map((value) => `/${encodeURIComponent(value)}`),
        ),
        async (path) => {
          expectSafe(await get(path || "/"), decodeURIComponent(path), usual);
        },
      ),
      { numRuns: serverRuns(3000) },
    );
  }, 120_000);

  it("any article slug", async () => {
    const usual = await usualPage("/blog/no-such-article-harmless");
    await fc.assert(
      fc.asyncProperty(text, async (slug) => {
        expectSafe(await get(`/blog/${encodeURIComponent(slug)}`), slug, usual, slug.startsWith("fault-"));
      }),
      { numRuns: serverRuns(3000) },
    );
  }, 120_000);

  it("any ?page= value", async () => {
    const usual = await usualPage("/blog");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          text,
          fc.integer().map(String),
          fc.double().map(String),
          fc.array(fc.nat(), { maxLength: 3 }).map((pages) => pages.join("&page=")),
        ),
        async (page) => {
          const reply = await get(`/blog?page=${encodeURIComponent(page)}`);
          expectSafe(reply, page, usual);
          if (reply !== "client-refused") expect([200, 301, 404]).toContain(reply.status);
        },
      ),
      { numRuns: serverRuns(2000) },
    );
  }, 120_000);

  it("any HTTP method: pages are read with GET and HEAD, anything else is refused, never a 500", async () => {
    const paths = [
      "/",
      "/blog",
      "/blog/backend-article-1",
      "/blog/no-such-article",
      "/favicon.svg",
      "/build/no-such.js",
      "/healthz",
      "/%",
    ];
    // Every method Node's parser accepts; CONNECT takes a host, not a path.
    for (const method of http.METHODS.filter((name) => name !== "CONNECT")) {
      for (const path of paths) {
        const reply = await request(method, path);
        expect(reply.status, `${method} ${path}`).toBeLessThan(500);
        if (!["GET", "HEAD", "OPTIONS"].includes(method) && path !== "/healthz") {
          expect(reply.status, `${method} ${path}`).toBe(405);
          expect(reply.allow, `${method} ${path}`).toBe("GET, HEAD, OPTIONS");
        }
      }
    }
  }, 60_000);

  it("any Host header: 400 when malformed, never a backend call", async () => {
    const usual = await usualPage("/blog/no-such-article-harmless");
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 60 }), fc.domain(), markup), async (host) => {
        // Counted for this test's own slug only, so no other request can disturb the count.
        const callsForSlug = () =>
          backend.calls().filter((call) => call.query.slug === "no-such-article-for-hosts").length;
        const before = callsForSlug();
        const reply = await get("/blog/no-such-article-for-hosts", { Host: host });
        expectSafe(reply, host, usual);
        if (reply !== "client-refused" && reply.status === 400) expect(callsForSlug()).toBe(before);
      }),
      { numRuns: serverRuns(2000) },
    );
  }, 120_000);
});

describe("forwarded headers", () => {
  it("X-Forwarded-Host cannot plant a port in the links of a page kept for others", async () => {
    // The site reads Host alone (nginx passes the public host in it); the framework's adapter would take
    // the port from X-Forwarded-Host, and the page cache would hand that page to the next readers.
    const planted = await get("/blog", { Host: "zen.example.org", "X-Forwarded-Host": "zen.example.org:6666" });
    const next = await get("/blog", { Host: "zen.example.org" });
    for (const reply of [planted, next]) {
      if (reply === "client-refused") throw new Error("the client refused the request");
      expect(reply.body).toContain('<link rel="canonical" href="http://zen.example.org/blog"/>');
      expect(reply.body).not.toContain("6666");
    }
  });
});

describe("an address that cannot be decoded", () => {
  it.each(["/%", "/blog/%E0%A4%A", "/build/%zz", "/%3Cscript%3E%"])(
    "%s gets the site's 400 page, not a bare error",
    async (path) => {
      const reply = await get(path);
      if (reply === "client-refused") throw new Error(`the client refused ${path}`);
      expect(reply.status).toBe(400);
      expect(reply.body).toContain("<title>This address cannot be read · ");
      expect(reply.body).toContain('<a href="/">Return to Home</a>');
      expect(reply.body).not.toMatch(/URIError|Failed to decode|\n\s+at /);
      expect(reply.body).not.toContain("<script");
    },
  );
});

describe("afterwards", () => {
  it("the server is still up", async () => {
    expect(site.child.exitCode).toBeNull();
    const reply = await get("/");
    expect(reply !== "client-refused" && reply.status).toBe(200);
  });
});

describe("any backend reply shape", () => {
  it("is a result or a clean failure, never a crash", async () => {
    const source = createHttpSource({ baseUrl: backend.url, token: FAKE_TOKEN, timeoutMs: 2000 });
    const shapes = fc.oneof(
      fc.jsonValue(),
      fc.record({
        blogs: fc.array(
          fc.dictionary(
            fc.constantFrom("id", "slug", "metaTitle", "metaDescription", "pinterestImageLink"),
            fc.jsonValue(),
          ),
        ),
        total: fc.jsonValue(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(shapes, async (body) => {
        backend.state.listBody = body;
        try {
          const page = await source.listPage("example.org", 1);
          expect(Array.isArray(page.blogs)).toBe(true);
          expect(Number.isInteger(page.total)).toBe(true);
          for (const blog of page.blogs) {
            if (blog.pinterestImageLink) expect(blog.pinterestImageLink).toMatch(/^(https?:\/\/|\/(?!\/))/);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(BlogUnavailableError);
        }
      }),
      { numRuns: serverRuns(500) },
    );
    backend.state.listBody = undefined;
  }, 120_000);
});
