import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startSite } from "../support/site-process.mjs";

// The operator's report (app/report, docs/decisions/054) on the production server: GET /report on the
// metrics listener shows a site's counts for a period, reader actions included, and this process's Web
// Vitals p75; `npm run report` prints the same figures from the store; a request the report cannot
// answer gets a page with its status; the public site has no /report.

const run = promisify(execFile);
const ALPHA = "alpha.example.org";
const BETA = "beta.example.net";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const scratch = mkdtempSync(path.join(tmpdir(), "report-"));
const catalogueDir = path.join(scratch, "catalogue");
const sitesFile = path.join(scratch, "sites.yaml");
let site: Awaited<ReturnType<typeof startSite>>;
let metricsPort: number;

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A request as node:http sends it (fetch cannot set Host). */
function get(
  port: number,
  urlPath: string,
  {
    method = "GET",
    host = "127.0.0.1",
    headers = {},
    body,
  }: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    http
      .request(
        { host: "127.0.0.1", port, method, path: urlPath, headers: { Host: host, ...headers }, agent: false },
        (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        },
      )
      .on("error", reject)
      .end(body);
  });
}
/** The page's text as a reader sees it. */
const visible = (html: string) =>
  html
    .replace(/<style[^]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** `npm run report`'s program, in the site's environment. */
async function report(args: string[]) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    SITES_FILE: sitesFile,
    CATALOGUE_DIR: catalogueDir,
    METRICS_PORT: String(metricsPort),
  };
  try {
    const { stdout, stderr } = await run(process.execPath, ["build/report.js", ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Rows in a site's catalogue file, as the counts and the reader actions write them. */
function seed(prefix: string, rows: [day: string, kind: string, page: string, key: string, n: number][]) {
  const file = readdirSync(catalogueDir).find((name) => name.startsWith(prefix) && name.endsWith(".sqlite"))!;
  const db = new Database(path.join(catalogueDir, file));
  db.exec(
    "CREATE TABLE IF NOT EXISTS counts (day TEXT NOT NULL, kind TEXT NOT NULL, page TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (day, kind, page, key)) WITHOUT ROWID",
  );
  const add = db.prepare("INSERT INTO counts (day, kind, page, key, n) VALUES (?, ?, ?, ?, ?)");
  for (const values of rows) add.run(...values);
  db.close();
}

beforeAll(async () => {
  // Two sites with articles of their own, so each has its own store.
  writeFileSync(
    sitesFile,
    `sites:\n  - hosts: [${ALPHA}]\n  - hosts: [${BETA}]\n    CONTENT_DIR: tests/support/sites-content\n`,
  );
  metricsPort = await freePort();
  site = await startSite({
    SITES_FILE: sitesFile,
    CATALOGUE_DIR: catalogueDir,
    METRICS_PORT: String(metricsPort),
    IMAGE_CACHE_DIR: path.join(scratch, "images"),
  });
  const [yesterday, before, longAgo] = [daysAgo(1), daysAgo(3), daysAgo(20)];
  seed("blog-", [
    [yesterday, "views", "", "", 900],
    [before, "views", "", "", 100],
    [longAgo, "views", "", "", 5000],
    [yesterday, "visitors", "", "", 400],
    [yesterday, "views", "/blog/beginners-mind", "", 600],
    [before, "views", "/blog/counting-the-breath", "", 80],
    [yesterday, "views", "routes/_index", "", 300],
    [yesterday, "read_end", "/blog/beginners-mind", "", 150],
    [yesterday, "engaged_seconds", "/blog/beginners-mind", "", 600 * 75],
    [yesterday, "donate_shown", "", "", 200],
    [yesterday, "donate_later", "", "", 90],
    [yesterday, "donate_backdrop", "", "", 50],
    [yesterday, "donate_now", "", "", 10],
    [yesterday, "donate_panel", "", "", 7],
    [yesterday, "referrer", "", "google.com", 120],
    [yesterday, "referrer", "", "<b>spam</b>.example", 3],
    [yesterday, "outbound", "", "accesstoinsight.org", 12],
  ]);
}, 30_000);

afterAll(async () => {
  await site?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the operator's report", { timeout: 30_000 }, () => {
  it("shows a site's counts for the period on the metrics listener, reader actions as rates, and npm run report prints the same", async () => {
    const page = await get(metricsPort, `/report?site=${ALPHA}&days=7`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-[^']+';/);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toMatch(/<svg[^>]*aria-label="Views and visitors per day"/);
    expect(page.text).toContain("&lt;b&gt;spam&lt;/b&gt;.example");

    const printed = await report(["--site", ALPHA, "--days", "7"]);
    expect(printed.code, printed.stderr).toBe(0);
    const figures = [
      "Views 1,000",
      "Articles viewed 2",
      // 150 ends of 680 article views; 600 × 75 engaged seconds over them.
      "Completion 22.1%",
      "1 min 06 s",
      "/blog/beginners-mind 600",
      "25.0%",
      "1 min 15 s",
      "/blog/counting-the-breath 80",
      "“Maybe Later” 90 45.0%",
      "Closed by the backdrop 50 25.0%",
      "“Donate Now” 10 5.0%",
      "(#donate): 7",
      "google.com 120",
      "accesstoinsight.org 12 100.0%",
    ];
    for (const shown of [visible(page.text), oneLine(printed.stdout)]) {
      for (const figure of figures) expect(shown).toContain(figure);
      expect(shown).toMatch(/Embeds: no data yet/);
    }
    // The longer period takes in the older day.
    expect(visible((await get(metricsPort, `/report?site=${ALPHA}&days=30`)).text)).toContain("Views 6,000");

    // Another site's report: its own store, nothing counted.
    const other = visible((await get(metricsPort, `/report?site=${BETA}&days=7`)).text);
    expect(other).toContain("Views 0");
    expect(other).toContain("No article was viewed in this period.");
    expect(other).toMatch(/donation pop-up: no data yet/i);
  });

  it("shows this process's Web Vitals p75 per route template, on the page and from npm run report", async () => {
    for (const [index, lcp] of [1200, 1800, 2200, 3500].entries()) {
      const body = JSON.stringify({
        v: 1,
        kind: "vitals",
        path: "/blog/reading-the-dhammapada-slowly",
        metrics: { LCP: [lcp, "main>img"], CLS: [0.02, ""] },
      });
      const headers = {
        "Content-Type": "text/plain",
        "Sec-Fetch-Site": "same-origin",
        "User-Agent": CHROME,
        "X-Forwarded-For": `198.51.100.${index}`,
      };
      const reply = await get(site.port, "/__beacon", { method: "POST", host: BETA, headers, body });
      expect(reply.status).toBe(204);
    }
    // Three of four at or below 2.5 s: the bound of that bucket.
    const vitals = /Articles \(routes\/blog\.\$slug\),? 4 pages.*?LCP \(?4\)?\s+2\.50 s\s+good/;
    expect(visible((await get(metricsPort, `/report?site=${BETA}`)).text)).toMatch(vitals);
    const printed = await report(["--site", BETA]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(oneLine(printed.stdout)).toMatch(/Articles \(routes\/blog\.\$slug\) LCP 4 2\.50 s good/);
    // The other site's histograms are its own.
    expect(visible((await get(metricsPort, `/report?site=${ALPHA}`)).text)).toContain("No page measured yet.");
  });

  it("answers what it cannot show with a page and its status, and is no page of the public site", async () => {
    const cases: [string, number, RegExp][] = [
      ["/report?days=8", 400, /days must be one of 7, 30, 90/],
      ["/report?days=7&days=30", 400, /days may be given once/],
      ["/report?site=nowhere.example.com", 404, /No site is named "nowhere\.example\.com"/],
      [`/report?site=${"a".repeat(1100)}`, 414, /at most 1024 characters/],
    ];
    for (const [address, status, problem] of cases) {
      const reply = await get(metricsPort, address);
      expect(reply.status, address).toBe(status);
      expect(visible(reply.text)).toMatch(problem);
    }
    const posted = await get(metricsPort, "/report", { method: "POST" });
    expect([posted.status, posted.headers.allow]).toEqual([405, "GET, HEAD"]);

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.webQueryParameters(),
          fc.string({ maxLength: 1200 }).map((text) => `site=${encodeURIComponent(text)}`),
          fc.constantFrom("site=%ZZ", "days=%00", "site=&days=", `site=${ALPHA}&site=${BETA}`),
        ),
        async (query) => {
          const reply = await get(metricsPort, `/report?${query}`);
          expect([200, 400, 404, 414]).toContain(reply.status);
          expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
          expect(reply.text).not.toMatch(/\n\s+at [\w.<>]+ \(|Error:/);
        },
      ),
      // A report the query leaves as it is costs a render: a few runs suffice here, parsing has its own (tests/unit/report/report.test.ts).
      { numRuns: 15 },
    );

    // On the public port, /report is the ordinary 404 page.
    const notFound = await get(site.port, "/no-such-page", { host: ALPHA });
    for (const address of ["/report", `/report?site=${ALPHA}&days=7`]) {
      const reply = await get(site.port, address, { host: ALPHA });
      expect(reply.status).toBe(404);
      expect(/<title>([^<]*)<\/title>/.exec(reply.text)?.[1]).toBe(/<title>([^<]*)<\/title>/.exec(notFound.text)?.[1]);
      expect(reply.text).not.toContain("Views");
    }

    expect(await report(["--site", "nowhere.example.com"])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No site is named "nowhere.example.com". Sites: ${ALPHA}, ${BETA}`),
    });
  });
});
