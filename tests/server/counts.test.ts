import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres } from "../support/postgres.mjs";
import { startSite } from "../support/site-process.mjs";

// Page views, visitors and sources from the beacon (app/counts, docs/decisions/050) on the production server:
// a reader's report counts a view of its page, with or without JavaScript; visitors and sources once a day;
// bots, opted-out readers and other sites' posts count nothing; counts survive a restart; generated
// hostile beacons add no row beyond the bounds; two origins on PostgreSQL count one visitor once. What
// readers do (decision 052) comes with the same reports, a continuation and the no-script panel's image;
// the blog's first page lists the most read articles once there are counts, and nothing before.

type Site = Awaited<ReturnType<typeof startSite>>;
type Row = { day: string; kind: string; page: string; key: string; n: number };

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0";
const HOST = "zen.example.org";
const ARTICLES = readdirSync("content/blog").map((file) => file.replace(/\.md$/, ""));
const scratch = mkdtempSync(path.join(tmpdir(), "counts-"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
/** Stops a site at once: the idle keep-alive connections would make its graceful stop wait for them. */
function stop(site: Site) {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  return site.stop();
}

/** A request from a reader's browser on `host`, as node:http sends it: any method, headers and body. */
function send(
  site: Site,
  {
    method = "POST",
    path: target = "/__beacon",
    body = "",
    headers = {},
  }: { method?: string; path?: string; body?: string; headers?: Record<string, string> },
) {
  return new Promise<number>((resolve) => {
    let request: http.ClientRequest;
    try {
      request = http.request(
        { host: "127.0.0.1", port: site.port, method, path: target, headers: { Host: HOST, ...headers }, agent },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      );
    } catch {
      return resolve(-1);
    }
    request.on("error", () => resolve(0));
    request.end(method === "GET" ? undefined : body);
  });
}

const report = (
  pagePath: string,
  extra: { q?: string; r?: string; a?: [string, string | null][]; e?: number; c?: 1 } = {},
) => JSON.stringify({ v: 1, kind: "vitals", path: pagePath, metrics: { CLS: [0, ""] }, ...extra });
const reader = (address: string, agentName = CHROME) => ({
  "User-Agent": agentName,
  "Sec-Fetch-Site": "same-origin",
  "Content-Type": "text/plain;charset=UTF-8",
  "X-Forwarded-For": address,
});
/** The no-script image: a GET whose Referer is the page. */
const image = (address: string, page: string) => ({
  "User-Agent": FIREFOX,
  "Sec-Fetch-Site": "same-origin",
  "Sec-Fetch-Dest": "image",
  Referer: `http://${HOST}${page}`,
  "X-Forwarded-For": address,
});

function countsIn(dir: string): Row[] {
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite"))!;
  const db = new Database(path.join(dir, file), { readonly: true });
  const rows = db.prepare("SELECT day, kind, page, key, n FROM counts").all() as Row[];
  db.close();
  return rows;
}
const sum = (rows: Row[], kind: string, page = "", key = "") =>
  rows
    .filter((row) => row.kind === kind && row.page === page && row.key === key)
    .reduce((total, row) => total + Number(row.n), 0);

/** Waits until the site's catalogue has its articles (its first sync, at start). */
async function catalogued(site: Site) {
  for (let attempt = 0; attempt < 100; attempt++) {
    // Without keep-alive: a connection left open would make the site's stop wait for it.
    const page = await new Promise<string>((resolve) => {
      http
        .get(`${site.url}/search?q=zazen`, { agent: false }, (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve(text));
        })
        .on("error", () => resolve(""));
    });
    if (page.includes(`/blog/${ARTICLES.find((slug) => slug.includes("zazen"))}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("catalogue not synced");
}

/** The blog page's "Most read" list, as article addresses; undefined when the page has none (nor its heading). */
async function mostRead(site: Site, pagePath = "/blog") {
  const html = await new Promise<string>((resolve, reject) => {
    // Without keep-alive, as `catalogued`.
    http
      .get(
        { host: "127.0.0.1", port: site.port, path: pagePath, headers: { Host: HOST }, agent: false },
        (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve(text));
        },
      )
      .on("error", reject);
  });
  const document = html.slice(0, html.indexOf("</html>"));
  const aside = /<aside[^>]*data-most-read[^>]*>([\s\S]*?)<\/aside>/.exec(document)?.[1];
  if (aside === undefined) {
    expect(document).not.toContain("Most read");
    return undefined;
  }
  expect(aside).toContain("Most read this week");
  return [...aside.matchAll(/href="(\/blog\/[^"]+)"/g)].map((match) => match[1]);
}

afterAll(() => {
  agent.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

describe("page views from the beacon, in the site's SQLite file", () => {
  const dir = path.join(scratch, "sqlite");
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CATALOGUE_DIR: dir });
    await catalogued(site);
  }, 30_000);
  afterAll(() => site && stop(site), 30_000);

  it("count a view per report and per no-script image, visitors and sources once a day, what readers did, nothing for bots, opted-out readers or other sites, keep them over a restart, and list the most read", async () => {
    const [first, second, ...others] = ARTICLES;
    // A new site: no list of the most read, no heading.
    expect(await mostRead(site)).toBeUndefined();
    const statuses = [
      await send(site, {
        body: report(`/blog/${first}`, {
          q: "?utm_source=Newsletter&utm_campaign=autumn",
          r: "https://www.google.com/",
        }),
        headers: reader("198.51.100.1"),
      }),
      await send(site, {
        body: report(`/blog/${second}`, { q: "", r: "https://www.google.com/" }),
        headers: reader("198.51.100.1"),
      }),
      await send(site, { body: report("/blog", { r: "" }), headers: reader("198.51.100.2") }),
      await send(site, { body: report("/blog/no-such-article", { r: "" }), headers: reader("198.51.100.3") }),
      await send(site, { method: "GET", headers: image("198.51.100.4", `/blog/${first}?utm_source=print`) }),
    ];
    expect(statuses).toEqual([204, 204, 204, 204, 204]);
    // Not counted: a crawler, Global Privacy Control, a post from another site, an image another site shows.
    expect(
      await send(site, {
        body: report(`/blog/${first}`),
        headers: reader("198.51.100.5", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
      }),
    ).toBe(204);
    expect(
      await send(site, { body: report(`/blog/${first}`), headers: { ...reader("198.51.100.6"), "Sec-GPC": "1" } }),
    ).toBe(204);
    expect(
      await send(site, {
        body: report(`/blog/${first}`),
        headers: { ...reader("198.51.100.7"), "Sec-Fetch-Site": "cross-site" },
      }),
    ).toBe(403);
    expect(
      await send(site, {
        method: "GET",
        headers: {
          ...image("198.51.100.8", `/blog/${first}`),
          "Sec-Fetch-Site": "cross-site",
          Referer: "https://elsewhere.example.com/",
        },
      }),
    ).toBe(403);
    expect(
      await send(site, {
        method: "GET",
        headers: { ...image("198.51.100.9", `/blog/${first}`), "Sec-Fetch-Dest": "script" },
      }),
    ).toBe(400);

    // What readers did (decision 052), with 14 more views of four other articles, 5, 4, 3 and 2 each.
    const read = [
      [others[0]!, 5],
      [others[1]!, 4],
      [others[2]!, 3],
      [others[3]!, 2],
    ] as const;
    let address = 20;
    for (const [slug, times] of read) {
      for (let time = 0; time < times; time++) {
        const acts: [string, string | null][] = [
          ["donate_shown", null],
          ["outbound", `www.host-${time}.example.com`],
          ["embed", "www.youtube-nocookie.com"],
        ];
        if (time % 2 === 0) acts.push(["read_end", null], ["read_end", null], ["donate_later", null]);
        expect(
          await send(site, {
            body: report(`/blog/${slug}`, { r: "", a: acts, e: 30_400 }),
            headers: reader(`198.51.100.${++address}`),
          }),
        ).toBe(204);
      }
    }
    // The first of them comes back to the page: a continuation, no view; "Donate Now" and the backdrop.
    const more = report(`/blog/${others[0]}`, {
      a: [
        ["donate_shown", null],
        ["donate_now", null],
        ["donate_backdrop", null],
      ],
      e: 86_000_000,
      c: 1,
    });
    expect(await send(site, { body: more, headers: reader("198.51.100.21") })).toBe(204);
    // A reader without JavaScript opens the donation panel; an act forged by image and another site's image are not counted.
    expect(
      await send(site, {
        method: "GET",
        path: "/__beacon?a=donate_panel",
        headers: image("198.51.100.90", `/blog/${first}`),
      }),
    ).toBe(204);
    expect(
      await send(site, {
        method: "GET",
        path: "/__beacon?a=read_end",
        headers: image("198.51.100.91", `/blog/${first}`),
      }),
    ).toBe(400);
    const elsewhere = {
      ...image("198.51.100.92", "/"),
      "Sec-Fetch-Site": "cross-site",
      Referer: "https://elsewhere.example.com/",
    };
    expect(await send(site, { method: "GET", path: "/__beacon?a=donate_panel", headers: elsewhere })).toBe(403);
    await stop(site);

    let rows = countsIn(dir);
    expect(sum(rows, "views")).toBe(5 + 14);
    expect(sum(rows, "views", `/blog/${first}`)).toBe(2);
    expect(sum(rows, "views", `/blog/${second}`)).toBe(1);
    expect(sum(rows, "views", "routes/blog._index")).toBe(1);
    expect(sum(rows, "views", "other")).toBe(1);
    expect(sum(rows, "visitors")).toBe(4 + 14);
    expect(sum(rows, "visitors", `/blog/${first}`)).toBe(2);
    // Sources come with the page's script only, and once per visitor.
    expect(sum(rows, "referrer", "", "google.com")).toBe(1);
    expect(sum(rows, "referrer", "", "(none)")).toBe(2 + 14);
    expect(sum(rows, "utm_source", "", "newsletter")).toBe(1);
    expect(sum(rows, "utm_campaign", "", "autumn")).toBe(1);
    expect(rows.some((row) => row.key === "print")).toBe(false);
    // One end a report, in the reports that named it: 3 of 5, 2 of 4, 2 of 3, 1 of 2; 30 s a report, at
    // most half an hour for the continuation; the funnel and the hosts for the site.
    expect(read.map(([slug]) => sum(rows, "read_end", `/blog/${slug}`))).toEqual([3, 2, 2, 1]);
    expect(sum(rows, "engaged_seconds", `/blog/${others[0]}`)).toBe(5 * 30 + 1800);
    expect(
      ["donate_shown", "donate_later", "donate_backdrop", "donate_now", "donate_panel"].map((kind) => sum(rows, kind)),
    ).toEqual([15, 8, 1, 1, 1]);
    expect(sum(rows, "embed", "", "youtube-nocookie.com")).toBe(14);
    expect(
      rows
        .filter((row) => row.kind === "outbound")
        .map((row) => `${row.key} ${row.n}`)
        .sort(),
    ).toEqual([
      "host-0.example.com 4",
      "host-1.example.com 4",
      "host-2.example.com 3",
      "host-3.example.com 2",
      "host-4.example.com 1",
    ]);

    // After a restart: the most read, those with three views or more, most first (the blog's later pages
    // have none); the same reader is no new visitor, a new one is.
    site = await startSite({ CATALOGUE_DIR: dir });
    await catalogued(site);
    expect(await mostRead(site)).toEqual(others.slice(0, 3).map((slug) => `/blog/${slug}`));
    expect(await mostRead(site, "/blog?page=2")).toBeUndefined();
    await send(site, { body: report(`/blog/${first}`, { r: "" }), headers: reader("198.51.100.1") });
    await send(site, { body: report(`/blog/${first}`, { r: "" }), headers: reader("198.51.100.10") });
    await stop(site);
    rows = countsIn(dir);
    expect(sum(rows, "views")).toBe(7 + 14);
    expect(sum(rows, "visitors")).toBe(5 + 14);
    expect(sum(rows, "visitors", `/blog/${first}`)).toBe(3);
  }, 60_000);

  it("keep generated hostile beacons within the bounds: known pages, source slots, key lengths", async () => {
    site = await startSite({ CATALOGUE_DIR: dir });
    let number = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...ARTICLES.map((slug) => `/blog/${slug}`), "/", "/blog", "/search"),
          fc.string({ maxLength: 600 }).map((text) => `/${text}`),
          fc.webPath(),
        ),
        fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.string({ maxLength: 2100 })),
        fc.oneof(
          fc.webQueryParameters().map((query) => `?${query}`),
          fc.string({ maxLength: 1100 }),
        ),
        fc.constantFrom("POST", "GET"),
        fc.oneof(fc.constant(CHROME), fc.string({ maxLength: 60 })),
        // What readers did: known and unknown kinds, hosts and odd keys, ends named many times; engaged
        // times of any size; continuations; and images naming an act.
        fc.oneof(
          {
            arbitrary: fc.array(
              fc.tuple(
                fc.oneof(
                  fc.constantFrom("read_end", "outbound", "embed", "donate_shown", "donate_now", "donate_panel"),
                  fc.string({ maxLength: 40 }),
                ),
                fc.oneof(fc.domain(), fc.string({ maxLength: 300 }), fc.constant(null)),
              ),
              { maxLength: 80 },
            ),
            weight: 4,
          },
          { arbitrary: fc.anything(), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.nat({ max: 100_000_000 }), weight: 4 },
          { arbitrary: fc.double(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 6 },
          { arbitrary: fc.constant(1), weight: 2 },
          { arbitrary: fc.anything(), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.constant("/__beacon"), weight: 4 },
          { arbitrary: fc.constant("/__beacon?a=donate_panel"), weight: 1 },
          {
            arbitrary: fc.string({ maxLength: 60 }).map((query) => `/__beacon?${encodeURIComponent(query)}`),
            weight: 1,
          },
        ),
        async (pagePath, referrer, query, method, userAgent, acts, engaged, continued, target) => {
          // Most from readers of their own; the rate limit holds the others.
          const address = `203.0.${Math.floor(number / 250) % 250}.${number++ % 250}`;
          const headers =
            method === "GET"
              ? { ...image(address, pagePath), "User-Agent": userAgent }
              : { ...reader(address, userAgent) };
          const body = JSON.stringify({
            v: 1,
            kind: "vitals",
            path: pagePath,
            metrics: {},
            q: query,
            r: referrer,
            a: acts,
            e: engaged,
            c: continued,
          });
          const status = await send(site, { method, path: method === "GET" ? target : "/__beacon", body, headers });
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
    await stop(site);
    const rows = countsIn(dir);
    const pages = new Set(rows.map((row) => row.page));
    const known = new Set([
      "",
      "other",
      ...ARTICLES.map((slug) => `/blog/${slug}`),
      "routes/_index",
      "routes/blog._index",
      "routes/search",
      "routes/keywords.$keyword",
      "routes/blog.$slug",
    ]);
    for (const page of pages) expect(known).toContain(page);
    for (const kind of ["referrer", "utm_source", "utm_medium", "utm_campaign", "outbound", "embed"]) {
      expect(rows.filter((row) => row.kind === kind && row.key !== "other").length).toBeLessThanOrEqual(50);
    }
    for (const row of rows) expect(row.key.length).toBeLessThanOrEqual(100);
    expect(sum(rows, "views")).toBeGreaterThan(21 + 50);
    // An article's acts on the site's articles only; the kinds are the known ones; the hosts were counted.
    const articles = new Set(ARTICLES.map((slug) => `/blog/${slug}`));
    for (const row of rows.filter((row) => row.kind === "read_end" || row.kind === "engaged_seconds"))
      expect(articles).toContain(row.page);
    const kinds = [
      "views",
      "visitors",
      "referrer",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "read_end",
      "engaged_seconds",
      "donate_shown",
      "donate_later",
      "donate_backdrop",
      "donate_now",
      "donate_panel",
      "outbound",
      "embed",
    ];
    for (const row of rows) expect(kinds).toContain(row.kind);
    expect(rows.filter((row) => row.kind === "outbound").length).toBeGreaterThan(0);
  }, 120_000);
});

describe("page views on PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop(), 30_000);

  it("count one visitor once across two origins, and keep the counts when both stop", async () => {
    const url = await postgres.createDatabase("counts");
    const env = { CATALOGUE_DATABASE_URL: url };
    const origins = await Promise.all([startSite(env), startSite(env)]);
    await Promise.all(origins.map(catalogued));
    const [slug] = ARTICLES;
    for (const [index, origin] of origins.entries()) {
      expect(
        await send(origin, {
          body: report(`/blog/${slug}`, { r: "https://news.example.net/" }),
          headers: reader("198.51.100.1"),
        }),
      ).toBe(204);
      expect(await send(origin, { body: report("/", { r: "" }), headers: reader(`198.51.100.${2 + index}`) })).toBe(
        204,
      );
    }
    await Promise.all(origins.map(stop));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<Row>("SELECT day, kind, page, key, n FROM counts");
    const stored = await client.query("SELECT count(*)::int AS n FROM count_salts");
    await client.end();
    expect(sum(rows, "views")).toBe(4);
    expect(sum(rows, "visitors")).toBe(3);
    expect(sum(rows, "visitors", `/blog/${slug}`)).toBe(1);
    expect(sum(rows, "referrer", "", "news.example.net")).toBe(1);
    expect(stored.rows[0].n).toBe(1);

    // The operator's report reads them there too (app/report): npm run report with the origins' settings.
    const { stdout } = await promisify(execFile)(process.execPath, ["build/report.js", "--days", "7"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", ...env },
    });
    expect(stdout.replace(/\s+/g, " ")).toMatch(/Views 4 Visitors 3 .*news\.example\.net 1 /);
  }, 60_000);
});
