import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHttpSource } from "~/blog/http-source.server";
import type { Catalogue, CatalogueArticle } from "~/search/catalogue";
import { COUNT_SQL, openPostgresCatalogue, RANKED_SQL } from "~/search/pg-catalogue.server";
import { createPool, prepareDatabase } from "~/search/pg-database.server";
import { migrate, SCHEMA_VERSION } from "~/search/pg-schema.server";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { createBackendPacer } from "~/search/backend-pace.server";
import { startSync } from "~/search/sync.server";
import { FAKE_TOKEN, makeArticles, startFakeBackend } from "../../support/fake-backend.mjs";
import { postgresMissing, startPostgres } from "../../support/postgres.mjs";
import { freePort } from "../../support/site-process.mjs";
import { busiestSecond } from "../../support/origins-pace";

// What the PostgreSQL store does beyond the catalogue suite both stores pass (catalogue.test.ts): the same
// results as SQLite on any text, its migrations and start checks, one sync across origins, outages.
describe.skipIf(postgresMissing)("the PostgreSQL catalogue", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pg-catalogue-"));
  let server: Awaited<ReturnType<typeof startPostgres>>;
  let pool: pg.Pool;
  let names = 0;
  const pools: pg.Pool[] = [];
  const stops: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    pool = createPool({ url: server.url, poolSize: 4 });
    await migrate(pool);
  }, 30_000);
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  afterAll(async () => {
    // The server is stopped whatever happens to the pools: none is left running.
    await Promise.allSettled([...pools, pool].map((each) => each?.end()));
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it("finds the same articles as the SQLite file for any articles and words", async () => {
    const vocabulary = [
      ...["thiền", "Thien", "đạo", "瞑想", "禪宗", "禅", "สมาธิ", "명상을", "불교", "dhamma", "nibbāna", "zen", "retreat", "Zen-Buddhismus", "o'clock", "x\u0000y", "\\", "'"],
      // The scripts of decision 046: Khmer and Lao clusters, Burmese in Unicode and Zawgyi, Tibetan words of
      // several syllables, Sinhala with and without its joiner, both Chinese scripts, marks out of NFC order.
      ...["ធ្វើសមាធិ", "សមាធិ", "ស្តាប់ធម៌", "ຟັງທຳ", "ທຳ", "မေတ္တာ", "ဘုန္းႀကီးေက်ာင္း", "ဘုန်းကြီးကျောင်း", "བྱང་ཆུབ", "བྱང་", "ཆུབ", "སེམས་དཔའ།"],
      ...["ශ්‍රී", "ශ්රී", "歷史很長", "历史", "很长", "觀音", "\u1019\u103c\u1004\u103a\u1037", "\u200d"],
    ];
    const text = fc.array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 8 })), { maxLength: 12 }).map((words) => words.join(" "));
    const articles = fc.uniqueArray(
      fc.record({ slug: fc.stringMatching(/^[a-z]{1,8}$/), title: text, description: text, body: text, keywords: fc.array(fc.constantFrom("Zen Retreat", "thiền", "瞑想"), { maxLength: 2 }) }),
      { selector: (article) => article.slug, maxLength: 8 },
    );
    const queries = fc.array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
    await fc.assert(
      fc.asyncProperty(articles, fc.array(queries, { minLength: 1, maxLength: 4 }), async (list, asked) => {
        const name = `same${names++}`;
        const sqlite = openSqliteCatalogue(path.join(dir, `${name}.sqlite`));
        const postgres = openPostgresCatalogue(pool, name);
        try {
          for (const fields of list) {
            const article: CatalogueArticle = { ...fields, date: "2024-01-05" };
            await sqlite.putArticle(article);
            await postgres.putArticle(article);
          }
          for (const query of asked) {
            const [one, two] = await Promise.all([sqlite.search(query, 1, 50), postgres.search(query, 1, 50)]);
            expect({ query, total: two.total, more: two.more, match: two.match, suggestion: two.suggestion }).toEqual({ query, total: one.total, more: one.more, match: one.match, suggestion: one.suggestion });
            expect(two.hits.map((hit) => hit.slug).sort()).toEqual(one.hits.map((hit) => hit.slug).sort());
          }
        } finally {
          sqlite.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("migrates once, records the version in schema_migrations, and refuses a schema newer than it knows", async () => {
    expect(await migrate(pool)).toEqual({ applied: [] });
    const { rows } = await pool.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1));
    const newer = createPool({ url: await server.createDatabase("newer"), poolSize: 1 });
    pools.push(newer);
    await migrate(newer);
    await newer.query("INSERT INTO schema_migrations (version) VALUES ($1)", [SCHEMA_VERSION + 1]);
    const refused = await prepareDatabase(newer, server.urlOf("newer"));
    expect(refused).toEqual({ ok: false, reason: expect.stringMatching(/^Catalogue database postgres:\/\/postgres@127\.0\.0\.1:\d+\/newer cannot be used: its schema is version \d+, newer than this site's \d+/) });
  });

  it("finds a word that is in every article through the index, not by reading every article's words", async () => {
    const catalogue = openPostgresCatalogue(pool, `everywhere${names++}`);
    for (let index = 0; index < 30; index++) await catalogue.putArticle({ slug: `a${index}`, title: `Bell ${index}`, description: "", date: "2024-01-05", keywords: [], body: "The bell rings." });
    await pool.query("ANALYZE articles");
    const { rows: found } = await pool.query<{ id: number }>("SELECT id FROM catalogues WHERE name = $1", [`everywhere${names - 1}`]);
    for (const [sql, values] of [
      [COUNT_SQL, [found[0]!.id, "'bell'", 1001]],
      [RANKED_SQL, [found[0]!.id, "'bell'", 10, 0]],
    ] as const) {
      const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, [...values]);
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("Bitmap Index Scan on articles_doc");
      expect(plan).not.toMatch(/Seq Scan|Filter: \(doc @@/);
    }
  });

  it("tells in one line, without the password, that a database cannot be reached", async () => {
    const url = `postgres://site:secret-password@127.0.0.1:${await freePort()}/catalog`;
    const away = createPool({ url, poolSize: 1 });
    pools.push(away);
    const result = await prepareDatabase(away, url);
    expect(result.ok).toBe(false);
    const reason = (result as { reason: string }).reason;
    expect(reason).toMatch(/^Catalogue database postgres:\/\/site@127\.0\.0\.1:\d+\/catalog cannot be reached: ECONNREFUSED/);
    expect(reason).not.toContain("secret-password");
    expect(reason).not.toContain("\n");
  });

  describe("sync across origins", () => {
    let backend: Awaited<ReturnType<typeof startFakeBackend>>;
    beforeAll(async () => {
      backend = await startFakeBackend({ content: makeArticles(6) });
    });
    afterAll(() => backend.close());

    /** An origin: its own pool and catalogue handle on the shared database, with its sync. */
    function origin(name: string, freshMs: number) {
      const own = createPool({ url: server.url, poolSize: 2 });
      pools.push(own);
      const catalogue = openPostgresCatalogue(own, name);
      const source = createHttpSource({ baseUrl: backend.url, token: FAKE_TOKEN, timeoutMs: 2000 });
      const sync = startSync({ catalogue, source, domain: "zen.example.org", callsPerSecond: 50, freshMs, sweepMs: 3_600_000, label: name });
      stops.push(sync.stop);
      return catalogue;
    }

    const until = async (condition: () => Promise<boolean>, timeoutMs = 10_000) => {
      const end = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > end) throw new Error("timed out");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };

    it("lets one origin sync while the others read what it stored", async () => {
      backend.reset();
      const one = origin("shared-a", 60_000);
      const two = origin("shared-a", 60_000);
      await until(async () => (await one.count()).withBody === 6);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(backend.calls().filter((call) => call.path === "/get_details")).toHaveLength(6);
      expect(backend.calls().filter((call) => call.path === "/get_metainfo")).toHaveLength(1);
      expect((await two.search("Backend Article 3", 1, 10)).hits[0]?.slug).toBe("backend-article-3");
    });

    it("keeps three origins on one database to one pace per backend, whichever origin holds each site's lease", async () => {
      const perSecond = 20;
      const { calls, busiest } = await busiestSecond(perSecond, (backendUrl) => {
        const own = createPool({ url: server.url, poolSize: 2 });
        pools.push(own);
        return { open: (name) => openPostgresCatalogue(own, name), pace: createBackendPacer(backendUrl, perSecond, { pool: own }) };
      });
      // Three sites of 12 articles: two list pages and 12 bodies each, fetched once whichever origin fetched them.
      expect(calls).toBe(3 * (2 + 12));
      // The turns hold exactly (tests/unit/pacer.test.ts); the starts, within one call of a busy machine's jitter.
      expect(busiest).toBeLessThanOrEqual(perSecond + 1);
    }, 30_000);

    it("moves the sync to another origin when the one holding it stops renewing (a crashed machine), within the lease and a fresh period", async () => {
      backend.reset();
      const crashed = openPostgresCatalogue(pool, "shared-b");
      expect(await crashed.lease("crashed-origin", 500)).toBe(true);
      const started = Date.now();
      const survivor = origin("shared-b", 300);
      await until(async () => (await survivor.count()).withBody === 6);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(400);
      expect(took).toBeLessThan(500 + 300 + 2000);
      expect(backend.calls().filter((call) => call.path === "/get_details")).toHaveLength(6);
    });
  });

  it("waits once for a database that does not answer, then fails at once for a while instead of making every request wait", async () => {
    // A machine that takes the connection and says nothing (gone behind a firewall that drops packets).
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const away = createPool({ url: `postgres://site@127.0.0.1:${port}/catalog`, poolSize: 2 });
    pools.push(away);
    const catalogue = openPostgresCatalogue(away, "silent");
    try {
      let started = Date.now();
      await expect(catalogue.search("bell", 1, 10)).rejects.toThrow();
      expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
      started = Date.now();
      await expect(catalogue.count()).rejects.toThrow(/did not answer a moment ago/);
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 15_000);

  it("fails fast while the database is away, and answers again when it is back, on the same pool", async () => {
    const catalogue: Catalogue = openPostgresCatalogue(pool, `outage${names++}`);
    await catalogue.putArticle({ slug: "bell", title: "The temple bell", description: "", date: "2024-01-05", keywords: [], body: "Rung at dawn." });
    expect((await catalogue.search("bell", 1, 10)).total).toBe(1);
    await server.stopServer();
    try {
      const started = Date.now();
      await expect(catalogue.search("bell", 1, 10)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await server.startServer();
    }
    const end = Date.now() + 10_000;
    let total: number | undefined;
    while (total === undefined && Date.now() < end) total = await catalogue.search("bell", 1, 10).then((found) => found.total, () => undefined);
    expect(total).toBe(1);
  }, 30_000);
});
