// nginx's cache in front of two origins (docs/nginx.conf): a crowd arriving at a page nobody has read
// yet costs the origins one render, and a page nginx has seen is still served when every origin is down.
import { describe, expect, test, vi } from "vitest";
import { nginxMissing } from "../support/nginx.mjs";
import { loggedRequests, useStack } from "./support/stack";

describe.skipIf(nginxMissing)("nginx cache in front of two origins", () => {
  // Pages stay fresh in nginx for 1 s only, so that the test sees them expire; and the origins do not
  // allow stale copies themselves (stale-if-error, stale-while-revalidate), so that a stale answer is
  // docs/nginx.conf's doing (proxy_cache_use_stale).
  const running = useStack({
    origin: { HTML_S_MAXAGE: "1", HTML_STALE_IF_ERROR: "0", HTML_STALE_WHILE_REVALIDATE: "0" },
  });

  /** What the origins logged for `pathname` (query strings apart): one status per request, sorted. */
  const loggedStatuses = (pathname: string) =>
    running()
      .origins.flatMap(loggedRequests)
      .filter((request) => request.url === pathname)
      .map((request) => request.status)
      .sort();
  const detailCalls = (slug: string) =>
    running()
      .backend.calls()
      .filter((call) => call.path === "/get_details" && call.query.slug === slug).length;

  test("100 simultaneous requests for an article nobody has read reach the origins once", async () => {
    const stack = running();
    const pathname = "/blog/backend-article-3";
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(stack.nginx.url + pathname, { headers: { "accept-encoding": "gzip, deflate, br" } }),
      ),
    );
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(200));

    // The origins write their request log asynchronously: wait for the first line, then count.
    await vi.waitFor(() => expect(loggedStatuses(pathname).length).toBeGreaterThan(0), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loggedStatuses(pathname), "requests in the origins' logs").toEqual([200]);
    expect(detailCalls("backend-article-3"), "article fetched from the backend").toBe(1);
    expect(
      responses.map((response) => response.headers.get("x-cache-status")).filter((status) => status === "MISS"),
    ).toHaveLength(1);
    expect(new Set(bodies).size, "every reader got the same page").toBe(1);
    expect(bodies[0]).toContain("Backend Article 3");
  });

  test("clients with other encodings get the page in their encoding, each encoding stored under its own key", async () => {
    const stack = running();
    const pathname = "/blog/backend-article-4";
    const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
    const http = await import("node:http");
    // node:http, not fetch: fetch always asks for and decodes compression.
    const get = (encoding: string) =>
      new Promise<{ encoding: string | undefined; cache: string | undefined; body: string }>((resolve, reject) => {
        http
          .get(stack.nginx.url + pathname, { headers: { "accept-encoding": encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
              const raw = Buffer.concat(chunks);
              const contentEncoding = res.headers["content-encoding"];
              const body =
                contentEncoding === "br"
                  ? brotliDecompressSync(raw)
                  : contentEncoding === "gzip"
                    ? gunzipSync(raw)
                    : raw;
              resolve({
                encoding: contentEncoding,
                cache: res.headers["x-cache-status"] as string | undefined,
                body: body.toString("utf8"),
              });
            });
          })
          .on("error", reject);
      });

    const brotli = await get("gzip, deflate, br, zstd");
    const gzip = await get("gzip");
    const plain = await get("identity");
    const brotliRefused = await get("br;q=0, gzip");
    expect([brotli.encoding, gzip.encoding, plain.encoding, brotliRefused.encoding]).toEqual([
      "br",
      "gzip",
      undefined,
      "gzip",
    ]);
    // identity and "br;q=0" clients share the gzip copy: only brotli and gzip went to an origin.
    expect([brotli.cache, gzip.cache, plain.cache, brotliRefused.cache]).toEqual(["MISS", "MISS", "HIT", "HIT"]);
    // Pages are the same bytes for every reader, whichever encoding carried them.
    for (const answer of [gzip, plain, brotliRefused]) expect(answer.body === brotli.body, "same page").toBe(true);
    expect(brotli.body).toContain("Backend Article 4");
  });

  test("an expired page is revalidated with its ETag: the origin answers 304 instead of the page", async () => {
    const stack = running();
    const pathname = "/blog/backend-article-6";
    const first = await fetch(stack.nginx.url + pathname);
    expect(first.status).toBe(200);
    const page = await first.text();
    // Read on past the page's s-maxage (1 s) until an origin has been asked again.
    await vi.waitFor(
      async () => {
        const response = await fetch(stack.nginx.url + pathname);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(page);
        expect(loggedStatuses(pathname).length).toBeGreaterThan(1);
      },
      { timeout: 10_000, interval: 200 },
    );
    const statuses = loggedStatuses(pathname);
    expect(statuses, "one full answer, then only 304s").toEqual([200, ...statuses.slice(1).map(() => 304)]);
  });

  test("with every origin down, a page nginx has seen is still answered with 200", async () => {
    const stack = running();
    const pathname = "/blog/backend-article-5";
    const first = await fetch(stack.nginx.url + pathname);
    expect(first.status).toBe(200);
    const page = await first.text();

    await Promise.all(stack.origins.map((origin) => origin.stop()));
    // Until the stored copy expires (s-maxage=1) nginx answers from it as fresh; read on until an
    // answer had to go to the (stopped) origins and was served stale instead.
    const statuses: string[] = [];
    for (let attempt = 0; attempt < 50 && !statuses.includes("STALE"); attempt += 1) {
      const response = await fetch(stack.nginx.url + pathname);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(page);
      statuses.push(response.headers.get("x-cache-status") ?? "none");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses).toContain("STALE");
    expect(stack.nginx.errorLog(), "nginx tried the origins").toMatch(/connect\(\) failed/);
  });
});
