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
// hostile beacons add no row beyond the bounds; two origins on PostgreSQL count one visitor once.

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
function send(site: Site, { method = "POST", body = "", headers = {} }: { method?: string; body?: string; headers?: Record<string, string> }) {
  return new Promise<number>((resolve) => {
    let request: http.ClientRequest;
    try {
      request = http.request({ host: "127.0.0.1", port: site.port, method, path: "/__beacon", headers: { Host: HOST, ...headers }, agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      });
    } catch {
      return resolve(-1);
    }
    request.on("error", () => resolve(0));
    request.end(method === "GET" ? undefined : body);
  });
}

const report = (pagePath: string, extra: { q?: string; r?: string } = {}) => JSON.stringify({ v: 1, kind: "vitals", path: pagePath, metrics: { CLS: [0, ""] }, ...extra });
const reader = (address: string, agentName = CHROME) => ({ "User-Agent": agentName, "Sec-Fetch-Site": "same-origin", "Content-Type": "text/plain;charset=UTF-8", "X-Forwarded-For": address });
/** The no-script image: a GET whose Referer is the page. */
const image = (address: string, page: string) => ({ "User-Agent": FIREFOX, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Dest": "image", Referer: `http://${HOST}${page}`, "X-Forwarded-For": address });

function countsIn(dir: string): Row[] {
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite"))!;
  const db = new Database(path.join(dir, file), { readonly: true });
  const rows = db.prepare("SELECT day, kind, page, key, n FROM counts").all() as Row[];
  db.close();
  return rows;
}
const sum = (rows: Row[], kind: string, page = "", key = "") => rows.filter((row) => row.kind === kind && row.page === page && row.key === key).reduce((total, row) => total + Number(row.n), 0);

/** Waits until the site's catalogue has its articles (its first sync, at start). */
async function catalogued(site: Site) {
  for (let attempt = 0; attempt < 100; attempt++) {
    // Without keep-alive: a connection left open would make the site's stop wait for it.
    const page = await new Promise<string>((resolve) => {
      http.get(`${site.url}/search?q=zazen`, { agent: false }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve(text));
      }).on("error", () => resolve(""));
    });
    if (page.includes(`/blog/${ARTICLES.find((slug) => slug.includes("zazen"))}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("catalogue not synced");
}

afterAll(() => {
  agent.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

describe("page views from the beacon, in the site's SQLite file", () => {
  const dir = path.join(scratch, "sqlite");
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ CATALOG_DIR: dir });
    await catalogued(site);
  }, 30_000);
  afterAll(() => site && stop(site), 30_000);

  it("count a view per report and per no-script image, visitors and sources once a day, nothing for bots, opted-out readers or other sites, and keep them over a restart", async () => {
    const [first, second] = ARTICLES;
    const statuses = [
      await send(site, { body: report(`/blog/${first}`, { q: "?utm_source=Newsletter&utm_campaign=autumn", r: "https://www.google.com/" }), headers: reader("198.51.100.1") }),
      await send(site, { body: report(`/blog/${second}`, { q: "", r: "https://www.google.com/" }), headers: reader("198.51.100.1") }),
      await send(site, { body: report("/blog", { r: "" }), headers: reader("198.51.100.2") }),
      await send(site, { body: report("/blog/no-such-article", { r: "" }), headers: reader("198.51.100.3") }),
      await send(site, { method: "GET", headers: image("198.51.100.4", `/blog/${first}?utm_source=print`) }),
    ];
    expect(statuses).toEqual([204, 204, 204, 204, 204]);
    // Not counted: a crawler, Global Privacy Control, a post from another site, an image another site shows.
    expect(await send(site, { body: report(`/blog/${first}`), headers: reader("198.51.100.5", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)") })).toBe(204);
    expect(await send(site, { body: report(`/blog/${first}`), headers: { ...reader("198.51.100.6"), "Sec-GPC": "1" } })).toBe(204);
    expect(await send(site, { body: report(`/blog/${first}`), headers: { ...reader("198.51.100.7"), "Sec-Fetch-Site": "cross-site" } })).toBe(403);
    expect(await send(site, { method: "GET", headers: { ...image("198.51.100.8", `/blog/${first}`), "Sec-Fetch-Site": "cross-site", Referer: "https://elsewhere.example.com/" } })).toBe(403);
    expect(await send(site, { method: "GET", headers: { ...image("198.51.100.9", `/blog/${first}`), "Sec-Fetch-Dest": "script" } })).toBe(400);
    await stop(site);

    let rows = countsIn(dir);
    expect(sum(rows, "views")).toBe(5);
    expect(sum(rows, "views", `/blog/${first}`)).toBe(2);
    expect(sum(rows, "views", `/blog/${second}`)).toBe(1);
    expect(sum(rows, "views", "routes/blog._index")).toBe(1);
    expect(sum(rows, "views", "other")).toBe(1);
    expect(sum(rows, "visitors")).toBe(4);
    expect(sum(rows, "visitors", `/blog/${first}`)).toBe(2);
    // Sources come with the page's script only, and once per visitor.
    expect(sum(rows, "referrer", "", "google.com")).toBe(1);
    expect(sum(rows, "referrer", "", "(none)")).toBe(2);
    expect(sum(rows, "utm_source", "", "newsletter")).toBe(1);
    expect(sum(rows, "utm_campaign", "", "autumn")).toBe(1);
    expect(rows.some((row) => row.key === "print")).toBe(false);

    // After a restart: the same reader is no new visitor; a new one is.
    site = await startSite({ CATALOG_DIR: dir });
    await catalogued(site);
    await send(site, { body: report(`/blog/${first}`, { r: "" }), headers: reader("198.51.100.1") });
    await send(site, { body: report(`/blog/${first}`, { r: "" }), headers: reader("198.51.100.10") });
    await stop(site);
    rows = countsIn(dir);
    expect(sum(rows, "views")).toBe(7);
    expect(sum(rows, "visitors")).toBe(5);
    expect(sum(rows, "visitors", `/blog/${first}`)).toBe(3);
  }, 60_000);

  it("keep generated hostile beacons within the bounds: known pages, source slots, key lengths", async () => {
    site = await startSite({ CATALOG_DIR: dir });
    let number = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...ARTICLES.map((slug) => `/blog/${slug}`), "/", "/blog", "/search"), fc.string({ maxLength: 600 }).map((text) => `/${text}`), fc.webPath()),
        fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.string({ maxLength: 2100 })),
        fc.oneof(fc.webQueryParameters().map((query) => `?${query}`), fc.string({ maxLength: 1100 })),
        fc.constantFrom("POST", "GET"),
        fc.oneof(fc.constant(CHROME), fc.string({ maxLength: 60 })),
        async (pagePath, referrer, query, method, userAgent) => {
          // Most from readers of their own; the rate limit holds the others.
          const address = `203.0.${Math.floor(number / 250) % 250}.${number++ % 250}`;
          const headers = method === "GET" ? { ...image(address, pagePath), "User-Agent": userAgent } : { ...reader(address, userAgent) };
          const status = await send(site, { method, body: JSON.stringify({ v: 1, kind: "vitals", path: pagePath, metrics: {}, q: query, r: referrer }), headers });
          expect(status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
    await stop(site);
    const rows = countsIn(dir);
    const pages = new Set(rows.map((row) => row.page));
    const known = new Set(["", "other", ...ARTICLES.map((slug) => `/blog/${slug}`), "routes/_index", "routes/blog._index", "routes/search", "routes/keywords.$keyword", "routes/blog.$slug"]);
    for (const page of pages) expect(known).toContain(page);
    for (const kind of ["referrer", "utm_source", "utm_medium", "utm_campaign"]) {
      expect(rows.filter((row) => row.kind === kind && row.key !== "other").length).toBeLessThanOrEqual(50);
    }
    for (const row of rows) expect(row.key.length).toBeLessThanOrEqual(100);
    expect(sum(rows, "views")).toBeGreaterThan(7 + 50);
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
    const env = { CATALOG_DATABASE_URL: url };
    const origins = await Promise.all([startSite(env), startSite(env)]);
    await Promise.all(origins.map(catalogued));
    const [slug] = ARTICLES;
    for (const [index, origin] of origins.entries()) {
      expect(await send(origin, { body: report(`/blog/${slug}`, { r: "https://news.example.net/" }), headers: reader("198.51.100.1") })).toBe(204);
      expect(await send(origin, { body: report("/", { r: "" }), headers: reader(`198.51.100.${2 + index}`) })).toBe(204);
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
    const { stdout } = await promisify(execFile)(process.execPath, ["build/report.js", "--days", "7"], { env: { PATH: process.env.PATH, NODE_ENV: "production", ...env } });
    expect(stdout.replace(/\s+/g, " ")).toMatch(/Views 4 Visitors 3 .*news\.example\.net 1 /);
  }, 60_000);
});
