import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The articles suggested at the end of an article come from the newest list page in the data cache: an
// article costs no backend call for them once the list is cached, one when it is not, and an article
// whose list cannot be had still shows, as it would have before, without them.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let site: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  // Every page rendered anew (no page cache), with the data cache's usual fresh period.
  site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "0" });
}, 30_000);

afterAll(async () => {
  await site?.stop();
  await backend?.close();
});

/** Each Host is a site domain of its own, with its own cache entries: a new one is a cold cache. */
let hosts = 0;
const coldHost = () => `cold-${(hosts += 1)}.example.test`;

/**
 * A page as this Host's visitor gets it (by node:http: fetch does not send a Host header of its own): the
 * document, without the data after it, which holds the whole of its translations, "Read next" included (decision 028).
 */
function open(path: string, host: string) {
  return new Promise<{ status: number; cacheControl: string | undefined; html: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: site.port, path, headers: { Host: host } }, (response) => {
        let html = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (html += chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            cacheControl: response.headers["cache-control"],
            html: html.includes("</html>") ? documentPart(html) : html,
          }),
        );
      })
      .on("error", reject);
  });
}

/** The article addresses the read-next section links to, in order; undefined when there is no section. */
function readNext(html: string): string[] | undefined {
  const section = /<section[^>]*data-read-next[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1];
  return section === undefined ? undefined : [...section.matchAll(/href="(\/blog\/[^"]+)"/g)].map((match) => match[1]!);
}

/** The backend calls made while `action` runs, as "path slug-or-page". */
async function callsDuring(action: () => Promise<unknown>) {
  const before = backend.calls().length;
  await action();
  return backend
    .calls()
    .slice(before)
    .map((call) => `${call.path} ${call.query.slug ?? call.query.page}`);
}

describe("read next", () => {
  it("on a cold site, costs one backend call besides the article's", async () => {
    const host = coldHost();
    let page!: Awaited<ReturnType<typeof open>>;
    const calls = await callsDuring(async () => (page = await open("/blog/backend-article-5", host)));
    expect(page.status).toBe(200);
    expect(calls.sort()).toEqual(["/get_details backend-article-5", "/get_metainfo 1"]);
    // The newest three, which do not include the article itself.
    expect(readNext(page.html)).toEqual([
      "/blog/backend-article-1",
      "/blog/backend-article-2",
      "/blog/backend-article-3",
    ]);
  });

  it("on a warm site, costs no backend call: an article not seen before asks for its details alone", async () => {
    const host = coldHost();
    await open("/blog", host);
    let page!: Awaited<ReturnType<typeof open>>;
    expect(await callsDuring(async () => (page = await open("/blog/backend-article-2", host)))).toEqual([
      "/get_details backend-article-2",
    ]);
    expect(readNext(page.html), "never the article itself").toEqual([
      "/blog/backend-article-1",
      "/blog/backend-article-3",
      "/blog/backend-article-4",
    ]);
    expect(
      await callsDuring(() => open("/blog/backend-article-2", host)),
      "an article seen before: no call at all",
    ).toEqual([]);
  });

  it("when the list call fails, the article still shows (200, cached as before), without suggestions", async () => {
    const normal = await open("/blog/backend-article-9", coldHost());
    expect(readNext(normal.html)).toHaveLength(3);
    backend.state.listStatus = 500;
    try {
      const host = coldHost();
      const page = await open("/blog/backend-article-9", host);
      expect(page.status).toBe(200);
      expect(page.cacheControl).toBe(normal.cacheControl);
      expect(page.html).toContain("Backend Article 9: Notes on Practice");
      expect(page.html).toContain("Back to All Articles");
      expect(readNext(page.html)).toBeUndefined();
      expect(page.html).not.toContain("Read next");
      // The blog's own list page still says that it failed.
      expect((await open("/blog", host)).status).toBe(503);
    } finally {
      backend.state.listStatus = 200;
    }
  });
});
