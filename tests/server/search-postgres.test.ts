import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";
import { postgresMissing, startPostgres } from "../support/postgres.mjs";
import { vietnameseContentDir } from "../support/servers.mjs";
import { freePort, startSite, startSiteExpectingExit } from "../support/site-process.mjs";

// The site with its catalogue on PostgreSQL (CATALOGUE_DATABASE_URL), as a reader and an operator see it:
// the same search pages as with the SQLite file, a one-line refusal at start, and pages served through an
// outage of the database, with search saying it is unavailable in the site's language until it is back.

type Site = Awaited<ReturnType<typeof startSite>>;

describe.skipIf(postgresMissing)("search on PostgreSQL", () => {
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let onPostgres: Site;
  let onSqlite: Site;

  const search = async (site: Site, query: string) => {
    const response = await fetch(`${site.url}/search?q=${encodeURIComponent(query)}`);
    const html = documentPart(await response.text());
    const list = /<ol aria-label="[^"]*"[^>]*>([\s\S]*?)<\/ol>/.exec(html)?.[1] ?? "";
    const results = [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item]) => ({
      href: /href="([^"]+)"/.exec(item!)?.[1],
      marks: [...item!.matchAll(/<mark[^>]*>([^<]*)<\/mark>/g)].map((match) => match[1]!.toLowerCase()).sort(),
    }));
    const main = (/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    return { status: response.status, retryAfter: response.headers.get("retry-after"), results, main };
  };

  const until = async (condition: () => Promise<boolean>, timeoutMs = 15_000) => {
    const end = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > end) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    server = await startPostgres();
    const vietnamese = { SITE_LANGUAGE: "vi", CONTENT_DIR: vietnameseContentDir };
    [onPostgres, onSqlite] = await Promise.all([
      startSite({ ...vietnamese, CATALOGUE_DATABASE_URL: server.url }),
      startSite(vietnamese),
    ]);
    // Each catalogue's first sync of the three embedded articles.
    for (const site of [onPostgres, onSqlite]) await until(async () => (await search(site, "thở")).results.length > 0);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([onPostgres?.stop(), onSqlite?.stop()]);
    await server?.stop();
  }, 30_000);

  it("gives the pages the SQLite file gives: the same articles, in the same order, with the same words marked", async () => {
    const queries = ["dem hoi tho", "Thiền", "vu lan", "niệm phật", "phat", "thiem", "qqqzzz"];
    // Each sync reads the bodies one at a time after the list: on a busy machine one store can still lack a
    // body the other has. Both are given time to have them all; the comparison below is then exact.
    const same = async () => {
      for (const query of queries) {
        const [one, two] = await Promise.all([search(onSqlite, query), search(onPostgres, query)]);
        if (JSON.stringify(one.results) !== JSON.stringify(two.results)) return false;
      }
      return true;
    };
    await until(same, 30_000).catch(() => undefined);
    for (const query of queries) {
      const [one, two] = await Promise.all([search(onSqlite, query), search(onPostgres, query)]);
      expect({ query, status: two.status, results: two.results }).toEqual({
        query,
        status: one.status,
        results: one.results,
      });
      expect(two.main).toBe(one.main);
    }
  }, 45_000);

  it("keeps serving pages while the database is away, says search is unavailable in the site's language, and searches again when it is back", async () => {
    await server.stopServer();
    try {
      for (const page of ["/", "/blog", "/blog/tho-va-thien"])
        expect((await fetch(onPostgres.url + page)).status, page).toBe(200);
      const away = await search(onPostgres, "chánh niệm");
      expect(away.status).toBe(503);
      expect(Number(away.retryAfter)).toBeGreaterThan(0);
      expect(away.main).toContain("Hiện không tìm kiếm được");
    } finally {
      await server.startServer();
    }
    await until(async () => (await search(onPostgres, "dem hoi tho")).status === 200);
    expect((await search(onPostgres, "dem hoi tho")).results[0]?.href).toBe("/blog/tho-va-thien");
  }, 30_000);

  it("stops at start with one line when the database cannot be reached", { timeout: 20_000 }, async () => {
    const { code, output } = await startSiteExpectingExit({
      CATALOGUE_DATABASE_URL: `postgres://site:hunter2hunter2@127.0.0.1:${await freePort()}/catalogue`,
    });
    expect(code).toBe(1);
    expect(output.trim()).toMatch(
      /^Catalogue database postgres:\/\/site@127\.0\.0\.1:\d+\/catalogue cannot be reached: ECONNREFUSED[^\n]*$/,
    );
    expect(output).not.toContain("hunter2");
  });

  it(
    "stops at start with one line when the database's schema is newer than the site",
    { timeout: 20_000 },
    async () => {
      const url = await server.createDatabase("from_the_future");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(
        "CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now()); INSERT INTO schema_migrations (version) VALUES (1), (2), (999)",
      );
      await client.end();
      const { code, output } = await startSiteExpectingExit({ CATALOGUE_DATABASE_URL: url });
      expect(code).toBe(1);
      expect(output.trim()).toMatch(
        /^Catalogue database \S+\/from_the_future cannot be used: its schema is version 999, newer than this site's \d+[^\n]*$/,
      );
    },
  );
});
