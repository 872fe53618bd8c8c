import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { actsOf, MAX_ACTS_PER_REPORT, MAX_ENGAGED_SECONDS, REPORTED_ACTS } from "~/counts/acts";
import { createCounter } from "~/counts/counter.server";
import { openPostgresCounts, readPostgresPeriod } from "~/counts/pg-counts.server";
import { pageOfPath } from "~/counts/pages.server";
import { NO_REFERRER, sourcesOf } from "~/counts/sources";
import { openSqliteCounts, readSqlitePeriod } from "~/counts/sqlite-counts.server";
import type { CountsStore } from "~/counts/store";
import {
  COMPLETION_PRIOR_VIEWS,
  figuresOf,
  MOST_READ_COUNT,
  MOST_READ_MIN_VIEWS,
  readingFigures,
} from "~/counts/reading.server";
import { MAX_KEY_LENGTH, OTHER, SOURCE_SLOTS, VISITOR_BITS, visitorEstimate, type Tally } from "~/counts/tally";
import { figuresOf as reportFigures } from "~/report/figures";
import { periodOf } from "~/report/period";
import { migrate } from "~/database/postgres-schema.server";
import { postgresForTests } from "../../support/postgres-in-tests";

// The daily counts (app/counts, docs/decisions/050, 052) in both stores: views and visitors per site and page,
// sources once per visitor and day within their slots, the day's salt shared and deleted after two days,
// counts that survive a restart, two origins counting one visitor once, and no address, user agent or hash
// in the store; what readers do (an article's end, engaged time, the donation funnel, hosts of outbound
// links and embeds within their slots); generated hostile input adds no row beyond the bounds. And the
// reading figures drawn from them: the most read articles, how often each is read to the end.

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const scratch = mkdtempSync(path.join(tmpdir(), "counts-"));
const postgres = postgresForTests();
let storeNumber = 0;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Each kind of store: `open` gives one more connection (a process, an origin) to one same store. */
const kinds = {
  sqlite: async () => {
    const file = path.join(scratch, `site-${++storeNumber}.sqlite`);
    return {
      open: () => openSqliteCounts(file),
      /** The period's counts as the operator's report reads them. */
      period: async (from: string, to: string) => readSqlitePeriod(file, from, to),
      /** Every value of every row of the counts' tables, as text, for what must never be stored. */
      everything: () => {
        const db = new Database(file, { readonly: true });
        const rows = ["count_salts", "count_bitmaps", "counts"].flatMap(
          (table) => db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[],
        );
        db.close();
        return rows;
      },
      /** Gives the day a salt of the test's (after the store's first open, which makes its tables). */
      seedSalt: async (day: string, salt: Buffer) => {
        const db = new Database(file);
        db.prepare("INSERT INTO count_salts (day, salt) VALUES (?, ?)").run(day, salt);
        db.close();
      },
    };
  },
  postgres: async () => {
    const pool = postgres.pool(4);
    await migrate(pool);
    const name = `site-${++storeNumber}`;
    return {
      open: () => {
        // Each origin has its pool.
        return openPostgresCounts(postgres.pool(2), name);
      },
      period: (from: string, to: string) => readPostgresPeriod(pool, name, from, to),
      everything: async () => {
        const tables = ["count_salts", "count_bitmaps", "counts"];
        const rows = await Promise.all(
          tables.map(
            async (table) =>
              (await pool.query(`SELECT * FROM ${table} WHERE store = $1`, [name])).rows as Record<string, unknown>[],
          ),
        );
        return rows.flat();
      },
      seedSalt: async (day: string, salt: Buffer) => {
        await pool.query("INSERT INTO count_salts (store, day, salt) VALUES ($1, $2, $3)", [name, day, salt]);
      },
    };
  },
};

/** A reader's bit in a bitmap of `size` under `salt`, as the counter picks it: the site's from byte 0, a page's from byte 4. */
const bitOf = (salt: Buffer, address: string, userAgent: string, offset: number, size: number) =>
  createHmac("sha256", salt).update(`site\u0000${address}\u0000${userAgent}`).digest().readUInt32BE(offset) % size;

/**
 * A salt under which these readers have bits of their own on the site and on a page: with the day's random
 * salt, two of three share a page's bit in about one run of 1,400, and count as one visitor.
 */
function saltApart(readers: { address: string; userAgent: string }[]): Buffer {
  for (let attempt = 0; ; attempt++) {
    const salt = createHmac("sha256", "counts test").update(String(attempt)).digest();
    const apart = [
      [0, VISITOR_BITS.site],
      [4, VISITOR_BITS.page],
    ].every(
      ([offset, size]) =>
        new Set(readers.map((reader) => bitOf(salt, reader.address, reader.userAgent, offset!, size!))).size ===
        readers.length,
    );
    if (apart) return salt;
  }
}

const sum = (rows: Tally[], kind: string, page = "", key = "") =>
  rows
    .filter((row) => row.kind === kind && row.page === page && row.key === key)
    .reduce((total, row) => total + row.n, 0);

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])("the counts in %s", (kind) => {
  it("count views and visitors per site and page, sources once per visitor and day, and keep them over a restart", async () => {
    const store = await kinds[kind]();
    let day = new Date("2026-11-26T08:00:00Z");
    const now = () => day;
    let counter = createCounter(store.open(), "site", { now });
    const reader = { address: "203.0.113.7", userAgent: CHROME };
    const neighbour = { address: "203.0.113.8", userAgent: CHROME };
    // The same address with another browser is another visitor.
    const otherBrowser = { address: "203.0.113.7", userAgent: `${CHROME} Edg/142.0` };
    // Three readers, three visitors: the day's salt keeps their bits apart (the second test lets them meet).
    await store.seedSalt("2026-11-26", saltApart([reader, neighbour, otherBrowser]));
    await counter.view({
      page: "/blog/zazen",
      ...reader,
      sources: sourcesOf(
        "https://www.google.com/search?q=zen",
        "?utm_source=Newsletter&utm_medium=email",
        "zen.example.org",
      ),
    });
    await counter.view({
      page: "/blog/zazen",
      ...reader,
      sources: sourcesOf("https://zen.example.org/", "", "zen.example.org"),
    });
    await counter.view({
      page: "routes/_index",
      ...reader,
      sources: sourcesOf("https://news.example.net/", "", "zen.example.org"),
    });
    await counter.view({ page: "/blog/zazen", ...neighbour, sources: sourcesOf("", "", "zen.example.org") });
    await counter.view({ page: "/blog/zazen", ...otherBrowser, sources: [] });
    await counter.close();

    // Another process, after a restart: the same reader the same day is no new visitor.
    counter = createCounter(store.open(), "site", { now });
    await counter.view({
      page: "/blog/zazen",
      ...reader,
      sources: sourcesOf("https://bing.com/", "", "zen.example.org"),
    });
    await counter.flush();
    const reading = store.open();
    let rows = await reading.read("2026-11-26", "2026-11-26");
    expect(sum(rows, "views")).toBe(6);
    expect(sum(rows, "views", "/blog/zazen")).toBe(5);
    expect(sum(rows, "views", "routes/_index")).toBe(1);
    expect(sum(rows, "visitors")).toBe(3);
    expect(sum(rows, "visitors", "/blog/zazen")).toBe(3);
    expect(sum(rows, "visitors", "routes/_index")).toBe(1);
    // The sources of each visitor's first view: Google and the newsletter, no referrer, none for the third.
    expect(
      rows
        .filter((row) => row.kind !== "views" && row.kind !== "visitors")
        .map(({ kind: k, key, n }) => `${k} ${key} ${n}`)
        .sort(),
    ).toEqual(
      ["referrer google.com 1", `referrer ${NO_REFERRER} 1`, "utm_medium email 1", "utm_source newsletter 1"].sort(),
    );

    // The next day has a salt of its own: the same reader is a visitor again; two days on, the first day's
    // salt and bitmaps are gone, its counts stay.
    day = new Date("2026-11-27T01:00:00Z");
    await counter.view({ page: "/blog/zazen", ...reader });
    await counter.flush();
    day = new Date("2026-11-28T01:00:00Z");
    await counter.view({ page: "/blog/zazen", ...reader });
    await counter.close();
    rows = await reading.read("2026-11-26", "2026-11-28");
    expect(
      ["2026-11-26", "2026-11-27", "2026-11-28"].map((d) =>
        sum(
          rows.filter((row) => row.day === d),
          "visitors",
        ),
      ),
    ).toEqual([3, 1, 1]);
    const stored = await store.everything();
    const days = (table: "salt" | "bits") =>
      [...new Set(stored.filter((row) => table in row).map((row) => row.day))].sort();
    expect(days("salt")).toEqual(["2026-11-27", "2026-11-28"]);
    expect(days("bits")).toEqual(["2026-11-27", "2026-11-28"]);
    // No address, user agent or hash: bitmaps of their fixed size, counts of bounded keys.
    const text = JSON.stringify(
      stored.map((row) => Object.fromEntries(Object.entries(row).filter(([, value]) => !Buffer.isBuffer(value)))),
    );
    for (const secret of ["203.0.113", "Chrome", "Mozilla"]) expect(text).not.toContain(secret);
    for (const row of stored.filter((row) => "bits" in row))
      expect((row.bits as Buffer).length * 8).toBe(row.page === "" ? VISITOR_BITS.site : VISITOR_BITS.page);
    await reading.close();
  }, 30_000);

  it("count one visitor once across two origins writing at once", async () => {
    const store = await kinds[kind]();
    const now = () => new Date("2026-11-26T12:00:00Z");
    const origins = [createCounter(store.open(), "site", { now }), createCounter(store.open(), "site", { now })];
    // 40 readers, each seen by both origins, on two pages.
    for (let reader = 0; reader < 40; reader++) {
      for (const [index, origin] of origins.entries()) {
        await origin.view({
          page: index ? "/blog/a" : "/blog/b",
          address: `198.51.100.${reader}`,
          userAgent: CHROME,
          sources: sourcesOf(`https://ref${reader % 3}.example.com/`, "", "zen.example.org"),
        });
      }
    }
    await Promise.all(origins.map((origin) => origin.close()));
    const reading = store.open();
    const rows = await reading.read("2026-11-26", "2026-11-26");
    expect(sum(rows, "views")).toBe(80);
    // The bits the day's salt gives these readers (two of them may share one, as two of 40 readers do on a
    // page's 4,096 bits in about one run of six): one visitor a bit, however many origins saw them.
    const salt = (await store.everything()).find((row) => "salt" in row && row.day === "2026-11-26")!.salt as Buffer;
    const bitsOfReaders = (offset: number, size: number) =>
      new Set(Array.from({ length: 40 }, (_, reader) => bitOf(salt, `198.51.100.${reader}`, CHROME, offset, size)))
        .size;
    expect(sum(rows, "visitors")).toBe(bitsOfReaders(0, VISITOR_BITS.site));
    expect(visitorEstimate(sum(rows, "visitors"), VISITOR_BITS.site)).toBeGreaterThanOrEqual(39);
    expect(sum(rows, "visitors", "/blog/a")).toBe(bitsOfReaders(4, VISITOR_BITS.page));
    expect(sum(rows, "visitors", "/blog/b")).toBe(bitsOfReaders(4, VISITOR_BITS.page));
    expect(rows.filter((row) => row.kind === "referrer").reduce((total, row) => total + row.n, 0)).toBe(
      sum(rows, "visitors"),
    );
    await reading.close();
  }, 30_000);

  it("count what readers do: an article's end and engaged time for the article, the donation funnel and hosts for the site; a continuation is no view", async () => {
    const store = await kinds[kind]();
    const now = () => new Date("2026-11-26T12:00:00Z");
    const counter = createCounter(store.open(), "site", { now });
    const reader = { address: "203.0.113.7", userAgent: CHROME };
    const host = "zen.example.org";
    await counter.view({
      page: "/blog/zazen",
      ...reader,
      acts: actsOf(
        [
          ["read_end", null],
          ["donate_shown", null],
          ["donate_later", null],
          ["read_end", null],
          ["outbound", "www.Wikipedia.org"],
          ["embed", "www.youtube-nocookie.com"],
          ["outbound", `www.${host}`],
          ["outbound", "localhost"],
          ["unknown", null],
        ],
        65_400,
        host,
      ),
    });
    // The same page shown again after its report: the reader went on and clicked "Donate Now".
    await counter.acts(
      "/blog/zazen",
      actsOf(
        [
          ["donate_shown", null],
          ["donate_now", null],
          ["read_end", null],
        ],
        2_400,
        host,
      ),
    );
    // Not an article: its end and engaged time count nowhere, the pop-up counts for the site.
    await counter.view({
      page: "routes/_index",
      ...reader,
      acts: actsOf(
        [
          ["read_end", null],
          ["donate_backdrop", null],
        ],
        9_000,
        host,
      ),
    });
    await counter.view({ page: OTHER, ...reader, acts: actsOf([["read_end", null]], 9_000, host) });
    await counter.acts("", [{ kind: "donate_panel", key: "", n: 1 }]);
    await counter.close();

    const reading = store.open();
    const rows = await reading.read("2026-11-26", "2026-11-26");
    expect(sum(rows, "views")).toBe(3);
    expect(sum(rows, "views", "/blog/zazen")).toBe(1);
    expect(sum(rows, "read_end", "/blog/zazen")).toBe(2);
    expect(sum(rows, "engaged_seconds", "/blog/zazen")).toBe(65 + 2);
    expect(
      rows.filter((row) => (row.kind === "read_end" || row.kind === "engaged_seconds") && row.page !== "/blog/zazen"),
    ).toEqual([]);
    expect(
      ["donate_shown", "donate_later", "donate_backdrop", "donate_now", "donate_panel"].map((name) => sum(rows, name)),
    ).toEqual([2, 1, 1, 1, 1]);
    expect(
      rows
        .filter((row) => row.kind === "outbound" || row.kind === "embed")
        .map(({ kind: k, page, key, n }) => `${k} ${page || "site"} ${key} ${n}`),
    ).toEqual(["embed site youtube-nocookie.com 1", "outbound site wikipedia.org 1"]);
    expect(await reading.sums(["views", "read_end"], "2026-11-26", "2026-11-26")).toEqual(
      expect.arrayContaining([
        { kind: "views", page: "/blog/zazen", n: 1 },
        { kind: "read_end", page: "/blog/zazen", n: 2 },
      ]),
    );
    expect((await reading.sums(["views"], "2026-11-27", "2026-12-03")).length).toBe(0);
    await reading.close();
  }, 30_000);

  it("give the operator's report the period's sums, the same figures as the rows themselves", async () => {
    const store = await kinds[kind]();
    const writing = store.open();
    const days = ["2026-11-20", "2026-11-24", "2026-11-26", "2026-11-27"];
    const pages = ["", "/blog/zazen", "/blog/metta", "routes/_index", OTHER];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            day: fc.constantFrom(...days),
            kind: fc.constantFrom(
              "views",
              "visitors",
              "referrer",
              "read_end",
              "engaged_seconds",
              "donate_shown",
              "outbound",
            ),
            page: fc.constantFrom(...pages),
            key: fc.constantFrom("", "google.com", "(none)"),
            n: fc.integer({ min: 1, max: 5000 }),
          }),
          { maxLength: 40 },
        ),
        async (tallies) => {
          // Reader actions are counted by another part into the same table: written here as rows of the table.
          await writing.write(tallies as Tally[], []);
          const week = periodOf(7, new Date("2026-11-26T12:00:00Z"));
          expect(reportFigures([await store.period(week.from, week.to)], week)).toEqual(
            reportFigures([await writing.read(week.from, week.to)], week),
          );
        },
      ),
      { numRuns: 15 },
    );
    await writing.close();
  });

  it("keep at most the slots a day, however many sources, hosts, acts and pages hostile beacons name", async () => {
    const store = await kinds[kind]();
    const now = () => new Date("2026-11-26T12:00:00Z");
    const counter = createCounter(store.open(), "site", { now });
    const catalogue = new Set(["zazen", "metta"]);
    const pageOf = pageOfPath(routes);
    let visitors = 0;
    let reports = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.string({ maxLength: 3000 }), fc.constant("")),
        fc.oneof(
          fc.webQueryParameters().map((query) => `?${query}`),
          fc.string({ maxLength: 1100 }),
          fc.constant("?utm_source=x&utm_medium=y&utm_campaign=z"),
        ),
        fc.string({ maxLength: 40 }),
        hostileActs,
        fc.oneof(fc.double({ min: 0, max: 86_400_000, noNaN: true }), fc.constant(undefined)),
        fc.boolean(),
        async (pagePath, referrer, query, userAgent, acts, engaged, continued) => {
          const page = await pageOf(pagePath.startsWith("/") ? pagePath : `/blog/${pagePath}`, async (slug) =>
            catalogue.has(slug),
          );
          const counted = actsOf(acts, engaged, "zen.example.org");
          if (continued) await counter.acts(page, counted);
          else
            await counter.view({
              page,
              address: `192.0.2.${visitors++}`,
              userAgent,
              sources: sourcesOf(referrer, query, "zen.example.org"),
              acts: counted,
            });
          reports += 1;
        },
      ),
      { numRuns: 400 },
    );
    // More referring hosts than slots, whatever the generator gave (a run once gave 42): the slots fill and the rest go to OTHER.
    for (let index = 0; index <= SOURCE_SLOTS; index++) {
      const page = await pageOf("/blog/zazen", async (slug) => catalogue.has(slug));
      await counter.view({
        page,
        address: `192.0.2.${visitors++}`,
        userAgent: "",
        sources: sourcesOf(`https://referrer-${index}.example.net/`, "", "zen.example.org"),
        acts: [],
      });
    }
    await counter.close();
    const reading = store.open();
    const rows = await reading.read("2026-11-26", "2026-11-26");
    const pages = new Set(rows.map((row) => row.page));
    for (const page of pages) expect(["", OTHER, "/blog/zazen", "/blog/metta", ...Object.keys(routes)]).toContain(page);
    for (const keyed of ["referrer", "utm_source", "utm_medium", "utm_campaign", "outbound", "embed"]) {
      const keys = rows.filter((row) => row.kind === keyed).map((row) => row.key);
      expect(keys.filter((key) => key !== OTHER).length).toBeLessThanOrEqual(SOURCE_SLOTS);
    }
    for (const row of rows) expect(row.key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(sum(rows, "views")).toBe(visitors);
    expect(rows.filter((row) => row.kind === "referrer").length).toBeGreaterThan(SOURCE_SLOTS);
    // The slots of hosts filled, and the rest went to OTHER.
    expect(rows.filter((row) => row.kind === "outbound" && row.key !== OTHER).length).toBe(SOURCE_SLOTS);
    expect(sum(rows, "outbound", "", OTHER)).toBeGreaterThan(0);
    // Acts of an article count for the site's articles only, at most one end and MAX_ENGAGED_SECONDS a report.
    for (const row of rows.filter((row) => row.kind === "read_end" || row.kind === "engaged_seconds"))
      expect(["/blog/zazen", "/blog/metta"]).toContain(row.page);
    const totalOf = (name: string) => rows.filter((row) => row.kind === name).reduce((total, row) => total + row.n, 0);
    expect(totalOf("read_end")).toBeLessThanOrEqual(reports);
    expect(totalOf("engaged_seconds")).toBeLessThanOrEqual(reports * MAX_ENGAGED_SECONDS);
    const allowed = new Set([
      "views",
      "visitors",
      "referrer",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      ...REPORTED_ACTS,
      "engaged_seconds",
    ]);
    for (const row of rows) expect(allowed).toContain(row.kind);
    await reading.close();
  }, 60_000);
});

/**
 * What hostile reports say readers did: known and unknown kinds, hosts (many of them, enough to fill the
 * slots), odd strings, any number of acts.
 */
const hostileActs = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...REPORTED_ACTS, "outbound", "outbound"), fc.string({ maxLength: 32 })),
    fc.oneof(fc.domain(), fc.string({ maxLength: 253 }), fc.constant(null)),
  ),
  { maxLength: 60 },
);

/** Routes as the build lists them: pages have a component; the catch-all's 404s and resource routes are no page. */
const page = { default: () => null };
const routes = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true, module: page },
  "routes/blog._index": { id: "routes/blog._index", parentId: "root", path: "blog", index: true, module: page },
  "routes/blog.$slug": { id: "routes/blog.$slug", parentId: "root", path: "blog/:slug", module: page },
  "routes/search": { id: "routes/search", parentId: "root", path: "search", module: page },
  "routes/blog.rss[.]xml": { id: "routes/blog.rss[.]xml", parentId: "root", path: "blog/rss.xml", module: {} },
  "routes/$": { id: "routes/$", parentId: "root", path: "*", module: page },
};

describe("pages and sources", () => {
  it("name a catalogue's article, a known page's route, or other", async () => {
    const pageOf = pageOfPath(routes);
    const has = async (slug: string) => slug === "zazen" || slug === "a/b";
    expect(await pageOf("/blog/zazen", has)).toBe("/blog/zazen");
    expect(await pageOf("/blog/a%2Fb", has)).toBe("/blog/a/b");
    expect(await pageOf("/blog/unknown", has)).toBe(OTHER);
    expect(await pageOf("/blog", has)).toBe("routes/blog._index");
    expect(await pageOf("/", has)).toBe("routes/_index");
    expect(await pageOf("/blog/rss.xml", has)).toBe(OTHER);
    expect(await pageOf("/no/such/page", has)).toBe(OTHER);
    expect(await pageOf("/blog/zazen", async () => Promise.reject(new Error("database away")))).toBe(OTHER);
  });

  it("keep a referrer's host without www. and the utm values, nothing of the site's own host", () => {
    expect(
      sourcesOf("https://www.Google.com/search?q=secret", "?utm_source=Mail%00ing&utm_medium=&x=1", "zen.example.org"),
    ).toEqual([
      { kind: "referrer", key: "google.com" },
      { kind: "utm_source", key: "mailing" },
    ]);
    expect(sourcesOf("https://zen.example.org/blog", "", "www.zen.example.org")).toEqual([]);
    for (const odd of [
      "",
      "android-app://com.example",
      "https://localhost/",
      `https://${"a".repeat(120)}.com/`,
      "not a url",
    ]) {
      expect(sourcesOf(odd, "", "zen.example.org")).toEqual([{ kind: "referrer", key: NO_REFERRER }]);
    }
    expect(sourcesOf("", `?utm_campaign=${"x".repeat(500)}`, "zen.example.org")[1]?.key).toHaveLength(MAX_KEY_LENGTH);
  });

  it("estimate visitors from the marked bits", () => {
    expect(visitorEstimate(0, 4096)).toBe(0);
    expect(visitorEstimate(1, 4096)).toBe(1);
    // 4,096 readers mark about 63 % of 4,096 bits.
    expect(visitorEstimate(Math.round(4096 * (1 - Math.exp(-1))), 4096)).toBeCloseTo(4096, -1);
  });
});

describe("what readers do, and the figures read from it", () => {
  it("count an article's end once a report, engaged time in bounded seconds, hosts as keys, nothing unknown", () => {
    const acts = actsOf(
      [
        ["read_end", null],
        ["read_end", null],
        ["embed", "WWW.YouTube-NoCookie.com"],
        ["outbound", "zen.example.org"],
        ["outbound", "not a host"],
        ["outbound", null],
        ["donate_panel", null],
        ["nonsense", "x"],
      ],
      1_499,
      "www.zen.example.org",
    );
    expect(acts).toEqual([
      { kind: "read_end", key: "", n: 1 },
      { kind: "embed", key: "youtube-nocookie.com", n: 1 },
      { kind: "engaged_seconds", key: "", n: 1 },
    ]);
    expect(actsOf([], 86_400_000, "zen.example.org")).toEqual([
      { kind: "engaged_seconds", key: "", n: MAX_ENGAGED_SECONDS },
    ]);
    expect(actsOf([], 400, "zen.example.org")).toEqual([]);
    expect(
      actsOf(
        Array.from({ length: 100 }, () => ["donate_shown", null] as const),
        undefined,
        "zen.example.org",
      ),
    ).toHaveLength(MAX_ACTS_PER_REPORT);
  });

  it("list the most viewed articles of the week with enough views, and smooth how often each is read to the end", () => {
    const recent = [
      { kind: "views", page: "/blog/b", n: 40 },
      { kind: "views", page: "/blog/a", n: 40 },
      { kind: "views", page: "/blog/c", n: MOST_READ_MIN_VIEWS },
      { kind: "views", page: "/blog/d", n: MOST_READ_MIN_VIEWS - 1 },
      { kind: "views", page: "routes/_index", n: 500 },
      { kind: "views", page: OTHER, n: 500 },
      ...Array.from({ length: 20 }, (_, index) => ({ kind: "views", page: `/blog/many-${index}`, n: 10 })),
    ];
    const { mostRead } = figuresOf(recent, []);
    expect(mostRead.slice(0, 3)).toEqual([
      { slug: "a", views: 40 },
      { slug: "b", views: 40 },
      { slug: "many-0", views: 10 },
    ]);
    expect(mostRead).toHaveLength(MOST_READ_COUNT * 2);
    expect(figuresOf(recent.slice(0, 4), []).mostRead.map((article) => article.slug)).toEqual(["a", "b", "c"]);

    // Over the longer window: the site reads half its articles to the end.
    const longer = [
      { kind: "views", page: "/blog/often", n: 200 },
      { kind: "read_end", page: "/blog/often", n: 180 },
      { kind: "views", page: "/blog/seldom", n: 200 },
      { kind: "read_end", page: "/blog/seldom", n: 20 },
      { kind: "views", page: "/blog/two-views", n: 2 },
      { kind: "read_end", page: "/blog/two-views", n: 2 },
      { kind: "views", page: "/blog/forged", n: 1 },
      { kind: "read_end", page: "/blog/forged", n: 90 },
    ];
    const { readRate } = figuresOf([], longer);
    const siteRate = (180 + 20 + 2 + 90) / (200 + 200 + 2 + 1);
    expect(readRate("often")).toBeGreaterThan(0.85);
    expect(readRate("seldom")).toBeLessThan(0.2);
    // Two views say little: near the site's rate. An article without counts has the site's rate.
    expect(readRate("two-views")).toBeCloseTo(
      (2 + COMPLETION_PRIOR_VIEWS * siteRate) / (2 + COMPLETION_PRIOR_VIEWS),
      6,
    );
    expect(readRate("never-seen")).toBeCloseTo(siteRate, 6);
    expect(readRate("forged")).toBeLessThanOrEqual(1);
    // No ends counted yet: every article alike.
    expect(
      figuresOf(
        [],
        longer.filter((row) => row.kind === "views"),
      ).readRate("often"),
    ).toBe(0);
  });

  it("are read from the store once per period, an older copy served meanwhile, and none when the store is away", async () => {
    let calls = 0;
    let away = false;
    let time = Date.parse("2026-11-26T12:00:00Z");
    const asked: string[][] = [];
    const store = {
      sums: async (kinds: readonly string[], from: string, to: string) => {
        calls += 1;
        asked.push([kinds.join("+"), from, to]);
        if (away) throw new Error("database away");
        return [
          { kind: "views" as const, page: "/blog/a", n: 10 * calls },
          ...["b", "c"].map((slug) => ({ kind: "views" as const, page: `/blog/${slug}`, n: 5 })),
        ];
      },
    } as unknown as CountsStore;
    const figures = readingFigures(store, { now: () => new Date(time) });
    expect((await figures()).mostRead[0]).toEqual({ slug: "a", views: 10 });
    expect(asked).toEqual([
      ["views", "2026-11-20", "2026-11-26"],
      ["views+read_end", "2026-10-28", "2026-11-26"],
    ]);
    time += 5 * 60_000;
    await figures();
    expect(calls).toBe(2);
    time += 6 * 60_000;
    // Stale: served at once while it is read again.
    expect((await figures()).mostRead[0]).toEqual({ slug: "a", views: 10 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toBe(4);
    expect((await figures()).mostRead[0]).toEqual({ slug: "a", views: 30 });

    const gone = readingFigures({
      sums: async () => Promise.reject(new Error("database away")),
    } as unknown as CountsStore);
    expect(await gone()).toMatchObject({ mostRead: [] });
    away = true;
    expect((await gone()).readRate("a")).toBe(0);
  });
});

export type { CountsStore };
