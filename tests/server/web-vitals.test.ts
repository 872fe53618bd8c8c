import http from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prometheusMissing, promtool } from "../support/prometheus.mjs";
import { freePort, startSite } from "../support/site-process.mjs";
import { samples, type Sample } from "../support/exposition";

// The Web Vitals endpoint (app/vitals, docs/decisions/047) on the production server, two sites from a
// sites file: a reader's beacon lands in its site's and route's histograms, in the right bucket; anything
// else (cross-site posts, bots, opted-out readers, floods, forged and huge bodies, generated ones) gets a
// 4xx or an uncounted 204, never a 5xx, and the series stay within their bounds.

type Site = Awaited<ReturnType<typeof startSite>>;
type Reply = { status: number; text: string; connection?: string };

const ALPHA = "alpha.example.org";
const BETA = "beta.example.net";
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const HEADLESS =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36";
const METRICS = ["LCP", "FCP", "TTFB", "INP", "CLS"] as const;
const BUCKETS: Record<(typeof METRICS)[number], number> = { LCP: 10, FCP: 10, TTFB: 10, INP: 9, CLS: 8 };
/** Distinct selectors each metric keeps by name (culprits.server.ts), besides "other" and "unknown". */
const NAMED_PER_METRIC = 30;

/** The route ids of pages (a route file with a component), and "other" for any other path. */
const pageRoutes = readdirSync("app/routes")
  .filter((file) => readFileSync(path.join("app/routes", file), "utf8").includes("export default"))
  .map((file) => `routes/${file.replace(/\.tsx?$/, "")}`);
const routeLabels = new Set([...pageRoutes, "other"]);

const scratch = mkdtempSync(path.join(tmpdir(), "web-vitals-"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
let site: Site;
let metricsPort: number;
let readerNumber = 0;
/** A reader's address as nginx on this machine passes it on: each beacon from a reader of its own unless told. */
const nextReader = () => `198.51.${Math.floor(++readerNumber / 250) % 250}.${readerNumber % 250}`;

/** A reader's browser posting a beacon from the page (sendBeacon with a string: text/plain, same-origin). */
const readerHeaders = (extra: Record<string, string> = {}) => ({
  "User-Agent": CHROME,
  "Sec-Fetch-Site": "same-origin",
  "Content-Type": "text/plain;charset=UTF-8",
  "X-Forwarded-For": nextReader(),
  ...extra,
});

const beacon = (pagePath: string, metrics: Record<string, [number, string?]>) =>
  JSON.stringify({ v: 1, kind: "vitals", path: pagePath, metrics });

/** A request as node:http sends it, with any Host, method and headers; chunks are written one by one. */
function send(
  host: string,
  body: string | Buffer | Buffer[],
  headers: Record<string, string>,
  {
    method = "POST",
    port = site.port,
    pathname = "/__beacon",
  }: { method?: string; port?: number; pathname?: string } = {},
): Promise<Reply | "client-refused"> {
  return new Promise((resolve) => {
    let request: http.ClientRequest;
    try {
      request = http.request(
        {
          host: "127.0.0.1",
          port,
          method,
          path: pathname,
          headers: { Host: host, ...headers },
          agent: Array.isArray(body) ? false : agent,
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, text, connection: response.headers.connection }),
          );
        },
      );
    } catch {
      // Node's own client refuses some inputs (control characters in a header): nothing was sent.
      return resolve("client-refused");
    }
    // A body the server stops reading ends in a reset on this side after its answer.
    request.on("error", () => resolve({ status: 0, text: "" }));
    if (Array.isArray(body)) {
      for (const chunk of body) request.write(chunk);
      request.end();
    } else request.end(method === "GET" || method === "HEAD" ? undefined : body);
  });
}

/**
 * The exposition, on a connection of its own: a kept-alive one, idle for about the listener's keep-alive
 * timeout (5 s, as after the generated beacons), may be closed by it just as it is used again.
 */
const scrapeText = () =>
  new Promise<string>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: metricsPort, path: "/metrics", agent: false }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve(text));
      })
      .on("error", reject);
  });
const scrape = async () => samples(await scrapeText());
const vitalSamples = (all: Sample[]) => all.filter((sample) => sample.name.startsWith("content_site_web_vitals_"));

/** The value of the one sample with this name and labels (among others): 0 when there is none. */
function valueOf(all: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = all.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

const outcomes = (all: Sample[]): Record<string, number> =>
  Object.fromEntries(
    all
      .filter((sample) => sample.name === "content_site_beacons_total")
      .map((sample) => [sample.labels.outcome, sample.value]),
  );

/** What each outcome counter grew by between two scrapes, the unchanged left out. */
function grown(before: Sample[], after: Sample[]): Record<string, number> {
  const [was, is] = [outcomes(before), outcomes(after)];
  return Object.fromEntries(
    Object.entries(is).flatMap(([outcome, value]) =>
      value !== was[outcome] ? [[outcome, value - (was[outcome] ?? 0)]] : [],
    ),
  );
}

/**
 * The most series the Web Vitals can ever have: for each site and route label, every histogram's
 * buckets, sum and count, and each of LCP, INP and CLS's named elements, "other" and "unknown".
 */
const SITES = 2;
const MAX_SERIES =
  SITES *
  routeLabels.size *
  (Object.values(BUCKETS).reduce((sum, buckets) => sum + buckets + 3, 0) + 3 * (NAMED_PER_METRIC + 2));

/** Every Web Vitals sample has a site of the sites file, a route label of the fixed set, a known metric. */
function expectBounded(all: Sample[]) {
  const vitals = vitalSamples(all);
  expect(vitals.length).toBeLessThanOrEqual(MAX_SERIES);
  for (const sample of vitals) {
    expect([ALPHA, BETA], sample.name).toContain(sample.labels.site);
    expect([...routeLabels], sample.name).toContain(sample.labels.route);
    if (sample.labels.metric !== undefined) expect(["LCP", "INP", "CLS"]).toContain(sample.labels.metric);
  }
  const elements = vitals.filter((sample) => sample.name === "content_site_web_vitals_poor_elements_total");
  for (const metric of ["LCP", "INP", "CLS"]) {
    const named = new Set(
      elements.filter((sample) => sample.labels.metric === metric).map((sample) => sample.labels.element),
    );
    named.delete("other");
    named.delete("unknown");
    expect(named.size, metric).toBeLessThanOrEqual(NAMED_PER_METRIC);
  }
}

function expectNoStackTrace(reply: Reply) {
  expect(reply.status, reply.text).toBeLessThan(500);
  expect(reply.text).not.toMatch(/\n\s+at [\w.<>]+ \(|Error:/);
}

beforeAll(async () => {
  const sitesFile = path.join(scratch, "sites.yaml");
  writeFileSync(
    sitesFile,
    `sites:\n  - hosts: [${ALPHA}]\n    SITE_PRODUCT: Alphazen\n  - hosts: [${BETA}]\n    SITE_PRODUCT: Betazen\n`,
  );
  metricsPort = await freePort();
  site = await startSite({
    SITES_FILE: sitesFile,
    METRICS_PORT: String(metricsPort),
    IMAGE_CACHE_DIR: path.join(scratch, "images"),
  });
}, 30_000);

afterAll(async () => {
  agent.destroy();
  await site?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("Web Vitals beacons", { timeout: 60_000 }, () => {
  it("go into their site's and route template's histograms, each value in its bucket, with the element behind a poor one", async () => {
    const before = await scrape();
    const replies = [
      await send(
        ALPHA,
        beacon("/blog/a-first-article", {
          LCP: [2400, "main>article>img"],
          FCP: [900, ""],
          TTFB: [150, ""],
          CLS: [0.3, "section#resources>div"],
          INP: [40, "button"],
        }),
        readerHeaders(),
      ),
      await send(ALPHA, beacon("/blog/another-one", { LCP: [4100, "main>article>img"] }), readerHeaders()),
      await send(BETA, beacon("/", { LCP: [900, "h1"], INP: [350, "button#menu"] }), readerHeaders()),
      // A resource route's path is no page: "other", as is whatever no route takes but the 404 page's.
      await send(BETA, beacon("/sitemap.xml", { CLS: [0] }), readerHeaders()),
      await send(BETA, beacon("/no/such/page", { CLS: [0] }), readerHeaders()),
    ];
    expect(replies.map((reply) => reply !== "client-refused" && reply.status)).toEqual([204, 204, 204, 204, 204]);
    const after = await scrape();
    expect(grown(before, after)).toEqual({ counted: 5 });

    const grew = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    const alphaArticle = { site: ALPHA, route: "routes/blog.$slug" };
    expect(grew("content_site_web_vitals_lcp_seconds_count", alphaArticle)).toBe(2);
    expect(grew("content_site_web_vitals_lcp_seconds_bucket", { ...alphaArticle, le: "2" })).toBe(0);
    expect(grew("content_site_web_vitals_lcp_seconds_bucket", { ...alphaArticle, le: "2.5" })).toBe(1);
    expect(grew("content_site_web_vitals_lcp_seconds_bucket", { ...alphaArticle, le: "4" })).toBe(1);
    expect(grew("content_site_web_vitals_lcp_seconds_bucket", { ...alphaArticle, le: "5" })).toBe(2);
    expect(grew("content_site_web_vitals_lcp_seconds_sum", alphaArticle)).toBeCloseTo(6.5);
    expect(grew("content_site_web_vitals_fcp_seconds_bucket", { ...alphaArticle, le: "0.5" })).toBe(0);
    expect(grew("content_site_web_vitals_fcp_seconds_bucket", { ...alphaArticle, le: "1" })).toBe(1);
    expect(grew("content_site_web_vitals_ttfb_seconds_bucket", { ...alphaArticle, le: "0.2" })).toBe(1);
    expect(grew("content_site_web_vitals_cls_bucket", { ...alphaArticle, le: "0.25" })).toBe(0);
    expect(grew("content_site_web_vitals_cls_bucket", { ...alphaArticle, le: "0.5" })).toBe(1);
    expect(grew("content_site_web_vitals_inp_seconds_bucket", { ...alphaArticle, le: "0.05" })).toBe(1);
    expect(grew("content_site_web_vitals_inp_seconds_bucket", { site: BETA, route: "routes/_index", le: "0.3" })).toBe(
      0,
    );
    expect(grew("content_site_web_vitals_inp_seconds_bucket", { site: BETA, route: "routes/_index", le: "0.5" })).toBe(
      1,
    );
    expect(grew("content_site_web_vitals_cls_count", { site: BETA, route: "other" })).toBe(1);
    expect(grew("content_site_web_vitals_cls_count", { site: BETA, route: "routes/$" })).toBe(1);

    // Beyond good: LCP 4.1 s, CLS 0.3, INP 350 ms. LCP 2.4 s, INP 40 ms and LCP 0.9 s are good.
    const elements = "content_site_web_vitals_poor_elements_total";
    expect(grew(elements, { ...alphaArticle, metric: "LCP", element: "main>article>img" })).toBe(1);
    expect(grew(elements, { ...alphaArticle, metric: "CLS", element: "section#resources>div" })).toBe(1);
    expect(grew(elements, { site: BETA, route: "routes/_index", metric: "INP", element: "button#menu" })).toBe(1);
    expect(
      after.filter(
        (sample) => sample.name === elements && sample.labels.metric === "LCP" && sample.labels.site === BETA,
      ),
    ).toEqual([]);
    expect(
      grew("content_site_http_request_duration_seconds_count", { site: ALPHA, route: "beacon", status_class: "2xx" }),
    ).toBe(2);
    if (!prometheusMissing)
      expect(promtool(["check", "metrics"], { input: await scrapeText() })).toEqual({ status: 0, output: "" });
  });

  it("are refused, or answered 204 and not counted, when they are not a reader's from the site's own page", async () => {
    const valid = beacon("/blog/x", { LCP: [5000, "main>img"], CLS: [0.5, "div"] });
    const cases: [string, string, Record<string, string>, number, string, { method?: string; host?: string }?][] = [
      [
        "another site's page (Sec-Fetch-Site)",
        valid,
        readerHeaders({ "Sec-Fetch-Site": "cross-site" }),
        403,
        "cross_site",
      ],
      ["a sibling subdomain's page", valid, readerHeaders({ "Sec-Fetch-Site": "same-site" }), 403, "cross_site"],
      ["a typed address, no page", valid, readerHeaders({ "Sec-Fetch-Site": "none" }), 403, "cross_site"],
      [
        "another site's Origin",
        valid,
        { ...readerHeaders(), "Sec-Fetch-Site": "", Origin: "https://evil.example" },
        403,
        "cross_site",
      ],
      [
        "another site's Origin named like ours",
        valid,
        { ...readerHeaders(), "Sec-Fetch-Site": "", Origin: `https://${ALPHA}.evil.example` },
        403,
        "cross_site",
      ],
      [
        "neither Origin nor Sec-Fetch-Site (a script)",
        valid,
        { "User-Agent": CHROME, "Content-Type": "text/plain" },
        403,
        "cross_site",
      ],
      ["a form post", valid, readerHeaders({ "Content-Type": "application/x-www-form-urlencoded" }), 415, "wrong_type"],
      [
        "a multipart post",
        valid,
        readerHeaders({ "Content-Type": "multipart/form-data; boundary=x" }),
        415,
        "wrong_type",
      ],
      ["no content type", valid, readerHeaders({ "Content-Type": "" }), 415, "wrong_type"],
      ["a compressed body", valid, readerHeaders({ "Content-Encoding": "gzip" }), 415, "wrong_type"],
      [
        "a GET from no page (the no-script image has its page as Referer)",
        "",
        readerHeaders(),
        403,
        "cross_site",
        { method: "GET" },
      ],
      ["a PUT", valid, readerHeaders(), 405, "malformed", { method: "PUT" }],
      ["not JSON", "LCP=5000", readerHeaders(), 400, "malformed"],
      ["a forged metric", beacon("/", { FID: [5000] }), readerHeaders(), 400, "malformed"],
      ["a value out of range", beacon("/", { LCP: [600_000, "main"] }), readerHeaders(), 400, "malformed"],
      [
        "a forged site",
        JSON.stringify({ ...JSON.parse(valid), site: "forged.example" }),
        readerHeaders(),
        400,
        "malformed",
      ],
      ["Googlebot", valid, readerHeaders({ "User-Agent": GOOGLEBOT }), 204, "bot"],
      ["a headless browser", valid, readerHeaders({ "User-Agent": HEADLESS }), 204, "bot"],
      ["a headless browser in disguise", valid, readerHeaders({ "Sec-CH-UA": '"HeadlessChrome";v="142"' }), 204, "bot"],
      ["no user agent", valid, readerHeaders({ "User-Agent": "" }), 204, "bot"],
      ["Global Privacy Control", valid, readerHeaders({ "Sec-GPC": "1" }), 204, "opted_out"],
      ["Do Not Track", valid, readerHeaders({ DNT: "1" }), 204, "opted_out"],
      ["a prefetch", valid, readerHeaders({ "Sec-Purpose": "prefetch" }), 204, "prefetch"],
      ["a prerender", valid, readerHeaders({ "Sec-Purpose": "prefetch;prerender" }), 204, "prefetch"],
    ];
    const vitalsBefore = vitalSamples(await scrape());
    for (const [what, body, headers, status, outcome, options] of cases) {
      const headersSent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ""));
      const before = await scrape();
      const reply = await send(options?.host ?? ALPHA, body, headersSent, { method: options?.method });
      if (reply === "client-refused") throw new Error(`the client refused ${what}`);
      expect(reply.status, what).toBe(status);
      expectNoStackTrace(reply);
      expect(grown(before, await scrape()), what).toEqual({ [outcome]: 1 });
    }
    // A host of no site is turned away before the endpoint (421), like any other request.
    const unknown = await send("evil.example", valid, readerHeaders());
    expect(unknown !== "client-refused" && unknown.status).toBe(421);
    expect(vitalSamples(await scrape())).toEqual(vitalsBefore);
  });

  it("refuse a body over 4 KB without reading it, whether its length is announced or it comes in chunks", async () => {
    const before = await scrape();
    const huge = JSON.stringify({ v: 1, kind: "vitals", path: "/", metrics: { LCP: [1000, "x".repeat(8_000)] } });
    const announced = await send(ALPHA, huge, readerHeaders());
    const started = performance.now();
    const chunks = await send(
      ALPHA,
      Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, "a")),
      readerHeaders({ "Transfer-Encoding": "chunked" }),
    );
    const chunkedMs = performance.now() - started;
    for (const reply of [announced, chunks]) {
      if (reply === "client-refused") throw new Error("refused");
      // The answer, or, for the 4 MB still being written, a reset as the server closes the connection.
      expect([413, 0]).toContain(reply.status);
    }
    expect(grown(before, await scrape())).toEqual({ too_large: 2 });
    expect(chunkedMs).toBeLessThan(5_000);
    // Exactly 4 KB is still a body it reads (and refuses, as it is no beacon).
    const limit = await send(ALPHA, "x".repeat(4096), readerHeaders());
    expect(limit !== "client-refused" && limit.status).toBe(400);
  });

  it("count a flooding reader's burst only, while other readers are counted", async () => {
    const before = await scrape();
    const flooder = "203.0.113.66";
    for (let n = 0; n < 60; n += 1) {
      const reply = await send(ALPHA, beacon("/", { CLS: [0.01] }), readerHeaders({ "X-Forwarded-For": flooder }));
      expect(reply !== "client-refused" && reply.status).toBe(204);
    }
    const other = await send(ALPHA, beacon("/", { CLS: [0.01] }), readerHeaders());
    expect(other !== "client-refused" && other.status).toBe(204);
    const growth = grown(before, await scrape());
    // 20 at once, then one each 3 s: one more at most while the flood lasts.
    const { counted = 0, rate_limited: limited = 0 } = growth;
    expect(counted).toBeGreaterThanOrEqual(21);
    expect(counted).toBeLessThanOrEqual(22);
    expect(counted + limited).toBe(61);
  });

  it("name a bounded set of elements per metric, whatever selectors arrive", async () => {
    for (let n = 0; n < 80; n += 1) {
      await send(
        BETA,
        beacon("/blog/x", {
          LCP: [5000, `div#forged-${n}>img`],
          INP: [900, `button#forged-${n}`],
          CLS: [0.9, `p#forged-${n}`],
        }),
        readerHeaders(),
      );
    }
    const all = await scrape();
    expectBounded(all);
    const elements = all.filter(
      (sample) => sample.name === "content_site_web_vitals_poor_elements_total" && sample.labels.site === BETA,
    );
    expect(
      elements.filter((sample) => sample.labels.metric === "LCP" && sample.labels.element === "other")[0]?.value,
    ).toBeGreaterThanOrEqual(50);
  });

  it("never answer generated hostile beacons with a 5xx or a stack trace, and never make a series outside the bounds", async () => {
    const selectorLike = fc.oneof(
      fc.stringMatching(/^[a-z]{1,8}(#[a-z0-9-]{1,12})?(>[a-z]{1,8}){0,3}$/),
      fc.string({ maxLength: 120 }),
      fc.constantFrom("", "<script>alert(1)</script>", 'a"} evil{x="', "a\\", "x".repeat(300)),
    );
    const metricName = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...METRICS) },
      fc.constantFrom("FID", "__proto__", "constructor", "lcp", ""),
      fc.string({ maxLength: 20 }),
    );
    const value = fc.oneof(
      { weight: 6, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }) },
      fc.double(),
      fc.integer(),
      fc.constantFrom(0, 0.1, 2500, 60_000, 60_001, -1),
    );
    const forgedBeacon = fc
      .record({
        v: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, fc.anything()),
        kind: fc.oneof({ weight: 4, arbitrary: fc.constant("vitals") }, fc.string({ maxLength: 12 })),
        path: fc.oneof(
          fc.constantFrom("/", "/blog", "/blog/x", "/search", "/sitemap.xml", "/img/r/x", "/keywords/zen"),
          fc.string({ maxLength: 600 }).map((text) => `/${text}`),
          fc.string(),
        ),
        metrics: fc.oneof(
          {
            weight: 4,
            arbitrary: fc.dictionary(
              metricName,
              fc.oneof({ weight: 3, arbitrary: fc.tuple(value, selectorLike) }, fc.tuple(value), fc.anything()),
              { maxKeys: 6 },
            ),
          },
          fc.anything(),
        ),
      })
      .map((body) => JSON.stringify(body));
    const body = fc.oneof(
      { weight: 6, arbitrary: forgedBeacon },
      { weight: 1, arbitrary: fc.json() },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 4000, max: 20_000 })
          .map((length) => `{"v":1,"kind":"vitals","path":"/","metrics":{"LCP":[1,"${"a".repeat(length)}"]}}`),
      },
    );
    // Readers' browsers sending forged bodies, and requests whose every header may be hostile too.
    const fromReader = fc.record({
      host: fc.constantFrom(ALPHA, BETA),
      method: fc.constant("POST"),
      headers: fc.constant({
        "User-Agent": CHROME,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "text/plain;charset=UTF-8",
      }),
      address: fc.ipV4(),
      body,
    });
    const hostile = fc.record({
      host: fc.constantFrom(ALPHA, BETA, `x.${ALPHA}`, "evil.example", "127.0.0.1"),
      method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "OPTIONS", "DELETE"),
      headers: fc
        .record({
          "Content-Type": fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom("text/plain", "application/json", "TEXT/PLAIN; charset=utf-8") },
            fc.constantFrom("application/x-www-form-urlencoded", "text/html"),
            fc.string({ maxLength: 30 }),
          ),
          "Sec-Fetch-Site": fc.constantFrom(
            "same-origin",
            "same-origin",
            "same-origin",
            "same-site",
            "cross-site",
            "none",
            "evil",
          ),
          Origin: fc.constantFrom(`http://${ALPHA}`, `http://${BETA}`, "https://evil.example", "null", "::"),
          "User-Agent": fc.constantFrom(CHROME, GOOGLEBOT, HEADLESS, "curl/8.5.0"),
          "Sec-GPC": fc.constantFrom("1", "0"),
          DNT: fc.constantFrom("1", "0"),
          "Sec-Purpose": fc.constantFrom("prefetch", "prefetch;prerender"),
          "Content-Encoding": fc.constantFrom("gzip", "identity", "br"),
        })
        // Each header present or not, so that every check is reached.
        .chain((all) => fc.subarray(Object.entries(all)).map((kept) => Object.fromEntries(kept))),
      address: fc.ipV4(),
      body,
    });
    const before = await scrape();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fromReader, hostile), async ({ host, method, headers, address, body: text }) => {
        const reply = await send(host, text, { ...headers, "X-Forwarded-For": address }, { method });
        if (reply === "client-refused") return;
        // 0: a connection the server closed while a refused body was still being written.
        if (reply.status !== 0) expectNoStackTrace(reply);
      }),
      { numRuns: 500 },
    );
    // The forged bodies reached the histograms, not only the refusals (each refusal: the test above).
    const growth = grown(before, await scrape());
    for (const outcome of ["counted", "malformed", "too_large"])
      expect(growth[outcome] ?? 0, outcome).toBeGreaterThan(0);
    const exposition = await scrapeText();
    expectBounded(samples(exposition));
    if (!prometheusMissing)
      expect(promtool(["check", "metrics"], { input: exposition })).toEqual({ status: 0, output: "" });
  });
});

describe("without Web Vitals", { timeout: 30_000 }, () => {
  it("ANALYTICS=off: pages load no measuring script nor the no-script image, and the endpoint is 404; without METRICS_PORT only views are counted", async () => {
    const on = await send(ALPHA, "", { "User-Agent": CHROME }, { method: "GET", pathname: "/" });
    expect(on !== "client-refused" && on.text).toContain('\\"analytics\\",true');
    expect(on !== "client-refused" && on.text).toContain('<noscript><img src="/__beacon" alt="" hidden>');
    for (const [env, counted] of [
      [{ ANALYTICS: "off", METRICS_PORT: String(await freePort()) }, false],
      [{}, true],
    ] as const) {
      const other = await startSite({ ...env, IMAGE_CACHE_DIR: path.join(scratch, "images") });
      try {
        const page = await send(
          "127.0.0.1",
          "",
          { "User-Agent": CHROME },
          { method: "GET", pathname: "/", port: other.port },
        );
        expect(page !== "client-refused" && page.text).toContain(`\\"analytics\\",${counted}`);
        expect(page !== "client-refused" && page.text.includes("/__beacon")).toBe(counted);
        // The stylesheet's count of a no-script reader's donation panel (app/tailwind.css) applies only then.
        expect(page !== "client-refused" && /<html [^>]*data-counted=""/.test(page.text)).toBe(counted);
        const post = await send("127.0.0.1", beacon("/", { CLS: [0] }), readerHeaders(), { port: other.port });
        expect(post !== "client-refused" && post.status).toBe(counted ? 204 : 404);
      } finally {
        await other.stop();
      }
    }
  });
});
