import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHttpSource } from "~/blog/http-source.server";
import type { Catalogue, CatalogueArticle } from "~/search/catalogue";
import { openPostgresCatalogue } from "~/search/pg-catalogue.server";
import { RANKING_SQL } from "~/search/pg-ranking.server";
import { createPool, prepareDatabase, run } from "~/database/postgres.server";
import { migrate, SCHEMA_VERSION } from "~/database/postgres-schema.server";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { textKey } from "~/search/text-key";
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
      ...[
        "thiền",
        "Thien",
        "đạo",
        "瞑想",
        "禪宗",
        "禅",
        "สมาธิ",
        "명상을",
        "불교",
        "dhamma",
        "nibbāna",
        "zen",
        "retreat",
        "Zen-Buddhismus",
        "o'clock",
        "x\u0000y",
        "\\",
        "'",
      ],
      // The scripts of decision 046: Khmer and Lao clusters, Burmese in Unicode and Zawgyi, Tibetan words of
      // several syllables, Sinhala with and without its joiner, both Chinese scripts, marks out of NFC order.
      ...[
        "ធ្វើសមាធិ",
        "សមាធិ",
        "ស្តាប់ធម៌",
        "ຟັງທຳ",
        "ທຳ",
        "မေတ္တာ",
        "ဘုန္းႀကီးေက်ာင္း",
        "ဘုန်းကြီးကျောင်း",
        "བྱང་ཆུབ",
        "བྱང་",
        "ཆུབ",
        "སེམས་དཔའ།",
      ],
      ...["ශ්‍රී", "ශ්රී", "歷史很長", "历史", "很长", "觀音", "\u1019\u103c\u1004\u103a\u1037", "\u200d"],
    ];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 8 })), { maxLength: 12 })
      .map((words) => words.join(" "));
    const articles = fc.uniqueArray(
      fc.record({
        slug: fc.stringMatching(/^[a-z]{1,8}$/),
        title: text,
        description: text,
        body: text,
        keywords: fc.array(fc.constantFrom("Zen Retreat", "thiền", "瞑想"), { maxLength: 2 }),
      }),
      { selector: (article) => article.slug, maxLength: 8 },
    );
    const queries = fc
      .array(fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 3 })
      .map((words) => words.join(" "));
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
            expect({ query, total: two.total, more: two.more, match: two.match, suggestion: two.suggestion }).toEqual({
              query,
              total: one.total,
              more: one.more,
              match: one.match,
              suggestion: one.suggestion,
            });
            expect(two.hits.map((hit) => hit.slug).sort()).toEqual(one.hits.map((hit) => hit.slug).sort());
          }
          // Each catalogue counts its articles (the ranking's bounds), through writes and removals.
          await postgres.remove(list.slice(0, 2).map((article) => article.slug));
          const { rows } = await pool.query<{ counted: number; held: number }>(
            "SELECT c.articles AS counted, (SELECT count(*)::int FROM articles a WHERE a.catalogue = c.id) AS held FROM catalogues c WHERE c.name = $1",
            [name],
          );
          expect(rows[0]!.counted).toBe(rows[0]!.held);
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
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^Catalogue database postgres:\/\/postgres@127\.0\.0\.1:\d+\/newer cannot be used: its schema is version \d+, newer than this site's \d+/,
      ),
    });
  });

  it("answers every statement of a search through its indexes, never by reading every article's words", async () => {
    const name = `everywhere${names++}`;
    const catalogue = openPostgresCatalogue(pool, name);
    for (let index = 0; index < 30; index++)
      await catalogue.putArticle({
        slug: `a${index}`,
        title: `Bell ${index}`,
        description: "",
        date: `2024-01-${String(1 + index).padStart(2, "0")}`,
        keywords: [],
        body: "The bell rings.",
      });
    await pool.query("ANALYZE");
    const { rows: found } = await pool.query<{ id: number }>("SELECT id FROM catalogues WHERE name = $1", [name]);
    const id = found[0]!.id;
    const windowed = `('bell') & ('@${id}:00614' | '@${id}:0062':*)`;
    const statements: [keyof typeof RANKING_SQL, unknown[], RegExp][] = [
      ["window", [id, 20], /Index Only Scan using articles_newest|Index Scan using articles_newest/],
      ["bounds", [id, ["bell"], ["bel"]], /terms_pkey/],
      ["count", [windowed, 5001], /Bitmap Index Scan on articles_doc/],
      ["ranked", [`('bell') & '#${id}'`, "'bell'", 10], /Bitmap Index Scan on articles_doc/],
      ["heads", [windowed, "'bell'", 10], /Bitmap Index Scan on articles_head/],
      ["bodies", [windowed, "'bell'", 10], /Bitmap Index Scan on articles_doc/],
      ["keywords", [windowed, "'bell':B", 10], /Bitmap Index Scan on articles_keywords/],
    ];
    // Statements are prepared (app/database/postgres.server.ts): after a few runs PostgreSQL may keep one plan
    // for any values, made without knowing them. Both plans are checked: for these values, and for any.
    const generic = await pool.connect();
    await generic.query("SET plan_cache_mode = force_generic_plan");
    const literal = (value: unknown): string =>
      Array.isArray(value)
        ? `ARRAY[${value.map(literal).join(", ")}]::text[]`
        : typeof value === "number"
          ? String(value)
          : generic.escapeLiteral(String(value));
    try {
      for (const [statement, values, index] of statements) {
        const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${RANKING_SQL[statement]}`, values);
        await generic.query(`PREPARE plan_${statement} AS ${RANKING_SQL[statement]}`);
        const { rows: genericRows } = await generic.query<{ "QUERY PLAN": string }>(
          `EXPLAIN EXECUTE plan_${statement} (${values.map(literal).join(", ")})`,
        );
        for (const [kind, plan] of [
          ["for these values", rows.map((row) => row["QUERY PLAN"]).join("\n")],
          ["for any values", genericRows.map((row) => row["QUERY PLAN"]).join("\n")],
        ]) {
          expect(plan, `${statement}, ${kind}`).toMatch(index);
          // No scan of a whole table, and no article's words unpacked to test them (the words of its title, keywords
          // and description alone may be: they are small, and kept in the row).
          expect(plan, `${statement}, ${kind}`).not.toMatch(/Seq Scan|Filter: .*\(doc \|\||Filter: .*[^(]head @@/);
        }
      }
    } finally {
      generic.release(true);
    }
  });

  it("prepares a search's statements once a connection, and runs any number of other texts unprepared past its bound", async () => {
    const single = createPool({ url: server.url, poolSize: 1 });
    pools.push(single);
    const catalogue = openPostgresCatalogue(single, `prepared${names++}`);
    await catalogue.putArticle({
      slug: "bell",
      title: "The bell",
      description: "",
      date: "2024-01-01",
      keywords: [],
      body: "The bell rings.",
    });
    const preparedNow = async () =>
      (await single.query<{ count: number }>("SELECT count(*)::int AS count FROM pg_prepared_statements")).rows[0]!
        .count;
    expect((await catalogue.search("bell", 1, 10)).hits.map((hit) => hit.slug)).toEqual(["bell"]);
    const afterOne = await preparedNow();
    expect(afterOne).toBeGreaterThan(0);
    // The same search again prepares nothing more: each statement was parsed and planned once.
    expect((await catalogue.search("bell", 1, 10)).hits.map((hit) => hit.slug)).toEqual(["bell"]);
    expect(await preparedNow()).toBe(afterOne);
    // Texts beyond the bound still answer, without growing what each connection keeps.
    const texts = Array.from({ length: 250 }, (_, index) => `SELECT $1::int + ${index} AS sum`);
    for (const [index, text] of texts.entries())
      expect(await run<{ sum: number }>(single, text, [1])).toEqual([{ sum: 1 + index }]);
    expect(await preparedNow()).toBeLessThanOrEqual(200);
  });

  it("keys each article by its day and id as the SQLite store does, for any date an article may have", async () => {
    const date = fc.oneof(
      fc
        .date({ min: new Date(-62_198_755_200_000), max: new Date(8_640_000_000_000_000), noInvalidDate: true })
        .map((value) => value.toISOString()),
      fc.constantFrom(
        "0000-06-01T00:00:00.000Z",
        "-000001-01-01T00:00:00.000Z",
        "+010000-01-01T00:00:00.000Z",
        "1970-01-01T00:00:00.000Z",
        "4840-10-15T00:00:00.000Z",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.option(date), fc.nat({ max: 2 ** 40 })), { minLength: 1, maxLength: 50 }),
        async (rows) => {
          const { rows: keys } = await pool.query<{ key: string }>(
            "SELECT (catalogue_day(d) * 4294967296 + id % 4294967296)::text AS key FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS r (d, id, n) ORDER BY n",
            [rows.map(([iso]) => iso), rows.map(([, id]) => id)],
          );
          expect(keys.map((row) => Number(row.key))).toEqual(rows.map(([iso, id]) => textKey(id % 2 ** 32, iso)));
        },
      ),
    );
  });

  it("tells in one line, without the password, that a database cannot be reached", async () => {
    const url = `postgres://site:secret-password@127.0.0.1:${await freePort()}/catalogue`;
    const away = createPool({ url, poolSize: 1 });
    pools.push(away);
    const result = await prepareDatabase(away, url);
    expect(result.ok).toBe(false);
    const reason = (result as { reason: string }).reason;
    expect(reason).toMatch(
      /^Catalogue database postgres:\/\/site@127\.0\.0\.1:\d+\/catalogue cannot be reached: ECONNREFUSED/,
    );
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
      const sync = startSync({
        catalogue,
        source,
        domain: "zen.example.org",
        callsPerSecond: 50,
        freshMs,
        sweepMs: 3_600_000,
        label: name,
      });
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
        return {
          open: (name) => openPostgresCatalogue(own, name),
          pace: createBackendPacer(backendUrl, perSecond, { pool: own }),
        };
      });
      // Three sites of 12 articles: two list pages and 12 bodies each, fetched once whichever origin fetched them.
      expect(calls).toBe(3 * (2 + 12));
      // The turns hold exactly (tests/unit/search/pacer.test.ts); the starts, within one call of a busy machine's jitter.
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
    const away = createPool({ url: `postgres://site@127.0.0.1:${port}/catalogue`, poolSize: 2 });
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
    await catalogue.putArticle({
      slug: "bell",
      title: "The temple bell",
      description: "",
      date: "2024-01-05",
      keywords: [],
      body: "Rung at dawn.",
    });
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
    while (total === undefined && Date.now() < end)
      total = await catalogue.search("bell", 1, 10).then(
        (found) => found.total,
        () => undefined,
      );
    expect(total).toBe(1);
  }, 30_000);
});
