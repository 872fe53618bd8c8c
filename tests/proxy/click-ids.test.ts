// Click ids and campaign tags through nginx (docs/nginx.conf's cache key, app/document/page-address.ts): a crowd
// arriving from a shared post, each reader with a link of their own, costs the origins at most one request.
import { describe, expect, test, vi } from "vitest";
import { nginxMissing } from "../support/nginx.mjs";
import { loggedRequests, useStack } from "./support/stack";

describe.skipIf(nginxMissing)("nginx's cache key is the page, not the click id", () => {
  const running = useStack();

  /** The origins' logged requests for `pathname`, whatever their query. */
  const loggedStatuses = (pathname: string) =>
    running()
      .origins.flatMap(loggedRequests)
      .filter((request) => request.url.split("?")[0] === pathname)
      .map((request) => request.status);
  const detailCalls = (slug: string) =>
    running()
      .backend.calls()
      .filter((call) => call.path === "/get_details" && call.query.slug === slug).length;

  test("1,000 readers of an article, each with a unique click id or campaign tag, cost at most one origin request", async () => {
    const stack = running();
    const pathname = "/blog/backend-article-8";
    const tags = (n: number) =>
      [`fbclid=IwAR${n}_x`, `gclid=Cj${n}`, `utm_source=news&utm_campaign=c${n}`, `msclkid=${n}`, `x=${n}`][n % 5];
    const replies = [];
    // In waves of 100: a crowd at once, as a shared post brings it.
    for (let wave = 0; wave < 10; wave += 1) {
      replies.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, async (_, n) => {
            const response = await fetch(`${stack.nginx.url}${pathname}?${tags(wave * 100 + n)}`, {
              headers: { "accept-encoding": "gzip, deflate, br" },
            });
            return { status: response.status, body: await response.text() };
          }),
        )),
      );
    }
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(new Set(replies.map((reply) => reply.body)).size, "every reader got the same page").toBe(1);
    await vi.waitFor(() => expect(loggedStatuses(pathname).length).toBeGreaterThan(0), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loggedStatuses(pathname).length, "requests in the origins' logs").toBeLessThanOrEqual(1);
    expect(detailCalls("backend-article-8"), "article fetched from the backend").toBe(1);
    // A read parameter still makes its own page: page 2 of the list, with a click id, is page 2.
    const second = await (await fetch(`${stack.nginx.url}/blog?fbclid=y&page=2`)).text();
    expect(second).toContain("Backend Article 11:");
    expect(await (await fetch(`${stack.nginx.url}/blog?utm_source=z`)).text()).toContain("Backend Article 1:");
  });

  test("a search is its words and page: kept by nginx, the same page with click ids, other words their own, rate limited", async () => {
    const stack = running();
    const ask = async (query: string) => {
      const response = await fetch(`${stack.nginx.url}/search?${query}`);
      return { status: response.status, body: await response.text(), cache: response.headers.get("x-cache-status") };
    };
    const first = await ask("q=notes+practice");
    expect(first.status).toBe(200);
    expect((await ask("q=notes+practice")).cache).toBe("HIT");
    // A query that names q is kept whole in nginx's key (docs/nginx.conf); the origins drop the click id.
    const tagged = await ask("q=notes+practice&utm_source=news&fbclid=x1");
    expect(tagged.body).toBe(first.body);
    const other = await ask("q=teacher");
    expect(other.cache).not.toBe("HIT");
    const paged = await ask("q=notes+practice&page=2&gclid=3");
    expect(paged.cache).not.toBe("HIT");
    // More than 5 a second with a burst of 20 from one client: the rest get 429, the origins are spared.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, n) => ask(`q=word${n}`).then((reply) => reply.status)),
    );
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  });

  test("pages carry the whole route manifest, so no reader asks the server about routes (decision 034)", async () => {
    const stack = running();
    const home = await (await fetch(`${stack.nginx.url}/`)).text();
    expect(home).toMatch(/import "\/build\/manifest-[0-9A-F]+\.js"/);
    expect(home, "no partial manifest inline").not.toContain("__remixManifest");
  });
});
