// Two origins behind nginx (docs/nginx.conf) sharing one catalogue in PostgreSQL: the backend pays for one
// sync between them, and a reader gets the same search results whichever origin answers.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { nginxMissing } from "../support/nginx.mjs";
import { postgresMissing, startPostgres } from "../support/postgres.mjs";
import { startStack, type Stack } from "./support/stack";

describe.skipIf(nginxMissing || postgresMissing)("two origins sharing a catalogue in PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof startPostgres>>;
  let stack: Stack;
  beforeAll(async () => {
    database = await startPostgres();
    stack = await startStack({
      origin: {
        CATALOGUE_DATABASE_URL: database.url,
        CATALOGUE_SYNC: "on",
        CATALOGUE_CALLS_PER_SECOND: "100",
        SITE_DOMAIN: "chan.example.test",
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await database?.stop();
  });

  const calls = (path: string) => stack.backend.calls().filter((call) => call.path === path);

  /** The results a search page lists: each result's link and marked words. */
  async function results(base: string, query: string) {
    const response = await fetch(`${base}/search?q=${encodeURIComponent(query)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const list = /<ol aria-label="[^"]*"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? "";
    return [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => ({
      href: /href="([^"]+)"/.exec(item!)?.[1],
      marks: [...item!.matchAll(/<mark[^>]*>([^<]*)<\/mark>/g)].map((match) => match[1]),
    }));
  }

  test("the backend is synced once between the two origins: each list page and each body fetched once", async () => {
    // The fake backend's 23 articles: three list pages, 23 bodies.
    await vi.waitFor(() => expect(calls("/get_details").length).toBeGreaterThanOrEqual(23), {
      timeout: 30_000,
      interval: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls("/get_details")).toHaveLength(23);
    expect(new Set(calls("/get_details").map((call) => call.query.slug)).size).toBe(23);
    expect(calls("/get_metainfo").map((call) => call.query.page)).toEqual(["1", "2", "3"]);
  });

  test("a search gives the same results from either origin and through nginx", async () => {
    const [one, two] = stack.origins;
    for (const query of ["backend article 7", "article", "artcle backend", "backend 1"]) {
      const direct = await results(one!.url, query);
      expect(direct.length, query).toBeGreaterThan(0);
      expect(await results(two!.url, query), query).toEqual(direct);
      expect(await results(stack.nginx.url, query), query).toEqual(direct);
    }
  });
});
