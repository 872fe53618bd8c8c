import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import * as client from "prom-client";
import { describe, expect, it } from "vitest";
import { VISITOR_BITS, visitorEstimate } from "~/counts/tally";
import { samples } from "~/metrics/exposition";
import { createSeries, PREFIX } from "~/metrics/series.server";
import { runReport } from "~/report/cli.server";
import { ACTION_KINDS, figuresOf, TOP, type CountRow } from "~/report/figures";
import { problemPage, reportPage } from "~/report/page.server";
import { parseChoice, periodOf, REPORT_DAYS } from "~/report/period";
import type { Report } from "~/report/report.server";
import { storesOfSite } from "~/report/stores.server";
import { reportText } from "~/report/text";
import { histogramQuantile, vitalsOf } from "~/report/web-vitals.server";
import type { SiteSettings } from "~/site/config.server";
import { prometheusMissing, promtool } from "../../support/prometheus.mjs";

// The operator's report (app/report): one module computes the figures from the counts' rows, the page and
// the terminal show the same of them; reader actions counted by name show as rates, or "no data yet"
// while none were counted; p75 from the histograms' buckets; what the store holds is text, never markup
// or a terminal's escape. And the Grafana dashboard in docs/ queries only series the site has.

const NOW = new Date("2026-11-26T15:00:00Z");
const week = periodOf(7, NOW);
const row = (day: string, kind: string, page: string, n: number, key = ""): CountRow => ({ day, kind, page, key, n });

function reportOf(stores: CountRow[][], extra: Partial<Report> = {}): Report {
  return {
    site: "zen.example.org",
    sites: ["zen.example.org", "other.example.net"],
    figures: figuresOf(stores, week),
    vitals: { templates: [] },
    stores: ["blog-AbC"],
    unread: 0,
    made: NOW,
    ...extra,
  };
}
/** The page's text as a reader sees it: tags out, entities read. */
const visible = (html: string) =>
  html
    .replace(/<style[^]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

describe("the report's figures", () => {
  const [first, second] = [week.each[0]!, week.each[6]!];
  const rows = [
    row(first, "views", "", 300),
    row(second, "views", "", 100),
    row(first, "visitors", "", 120),
    row(second, "visitors", "", 50),
    row(first, "views", "/blog/zazen", 200),
    // Visitors per page are no figure of the report: left out.
    row(first, "visitors", "/blog/zazen", 90),
    row(second, "views", "/blog/metta", 60),
    row(second, "views", "routes/_index", 140),
    row(first, ACTION_KINDS.readEnd, "/blog/zazen", 50),
    row(first, ACTION_KINDS.engagedSeconds, "/blog/zazen", 200 * 95),
    row(second, ACTION_KINDS.engagedSeconds, "/blog/metta", 60 * 30),
    row(first, ACTION_KINDS.donateShown, "", 80),
    row(first, ACTION_KINDS.donateLater, "", 40),
    row(second, ACTION_KINDS.donateBackdrop, "", 20),
    row(second, ACTION_KINDS.donateNow, "", 4),
    row(first, ACTION_KINDS.donatePanel, "", 3),
    row(first, "referrer", "", 70, "google.com"),
    row(second, "referrer", "", 30, "google.com"),
    row(first, "referrer", "", 50, "(none)"),
    row(first, "utm_source", "", 5, "newsletter"),
    row(first, ACTION_KINDS.outbound, "", 9, "accesstoinsight.org"),
    row(second, ACTION_KINDS.embed, "", 2, "youtube.com"),
    // Outside the week: left out.
    row("2026-11-19", "views", "", 1000),
    row("2026-11-19", ACTION_KINDS.readEnd, "/blog/metta", 1000),
  ];

  it("add up views, estimate visitors per day, rank articles with their completion and engaged time, and make the funnel's rates", () => {
    const figures = figuresOf([rows], week);
    expect(figures.views).toBe(400);
    expect(figures.visitors).toBe(visitorEstimate(120, VISITOR_BITS.site) + visitorEstimate(50, VISITOR_BITS.site));
    expect(figures.daily).toHaveLength(7);
    expect(figures.daily[0]).toEqual({ day: first, views: 300, visitors: visitorEstimate(120, VISITOR_BITS.site) });
    expect(figures.daily.slice(1, 6).every((day) => day.views === 0 && day.visitors === 0)).toBe(true);
    expect(
      figures.articles.top.map((article) => [article.page, article.views, article.completion, article.engagedSeconds]),
    ).toEqual([
      ["/blog/zazen", 200, 0.25, 95],
      // Read to the end by nobody in the week: 0 %, not "no data", since ends are counted on the site.
      ["/blog/metta", 60, 0, 30],
    ]);
    expect(figures.articles).toMatchObject({ viewed: 2, views: 260, completion: 50 / 260 });
    expect(figures.articles.engagedSeconds).toBeCloseTo((200 * 95 + 60 * 30) / 260);
    expect(figures.pages).toEqual([{ page: "routes/_index", views: 140 }]);
    expect(figures.funnel).toEqual({ shown: 80, later: 40, backdrop: 20, now: 4 });
    expect(figures.donatePanel).toBe(3);
    expect(figures.sources.referrer).toEqual({
      visitors: 150,
      top: [
        { key: "google.com", n: 100 },
        { key: "(none)", n: 50 },
      ],
    });
    expect(figures.sources.utm_source.top).toEqual([{ key: "newsletter", n: 5 }]);
    expect(figures.outbound.top).toEqual([{ key: "accesstoinsight.org", n: 9 }]);
    expect(figures.embeds.top).toEqual([{ key: "youtube.com", n: 2 }]);
  });

  it('take rows the store summed over the period (day "") as the period\'s', () => {
    const summed = [
      row("", "views", "/blog/zazen", 30),
      row("", ACTION_KINDS.readEnd, "/blog/zazen", 6),
      row("", "referrer", "", 4, "google.com"),
    ];
    const figures = figuresOf([summed], week);
    expect(figures.articles.top).toEqual([
      { page: "/blog/zazen", views: 30, completion: 0.2, engagedSeconds: undefined },
    ]);
    expect(figures.sources.referrer.top).toEqual([{ key: "google.com", n: 4 }]);
  });

  it("add a site's stores, each store's visitors estimated on their own", () => {
    const store = [row(first, "views", "", 10), row(first, "visitors", "", 30_000)];
    const figures = figuresOf([store, store], week);
    expect(figures.views).toBe(20);
    // Two bitmaps of 30,000 bits set: twice one's estimate, not the estimate of 60,000 bits of one.
    expect(figures.visitors).toBe(2 * visitorEstimate(30_000, VISITOR_BITS.site));
  });

  it("show the same figures on the page and in the terminal, the rates as percentages", () => {
    const report = reportOf([rows]);
    const page = visible(reportPage(report));
    const text = reportText(report);
    for (const shown of [
      "Views 400",
      `Visitors ${visitorEstimate(120, VISITOR_BITS.site) + visitorEstimate(50, VISITOR_BITS.site)}`,
      "19.2%",
      "1 min 20 s",
    ]) {
      expect(page.replace(/\s+/g, " ")).toContain(shown);
      expect(text.replace(/\s+/g, " ")).toContain(shown);
    }
    for (const figures of [
      ["/blog/zazen", "200", "25.0%", "1 min 35 s"],
      ["“Maybe Later”", "40", "50.0%"],
      ["Closed by the backdrop", "20", "25.0%"],
      ["“Donate Now”", "4", "5.0%"],
      ["google.com", "100", "66.7%"],
    ]) {
      const line = new RegExp(
        figures.map((figure) => figure.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+(?:\\S+\\s+)?"),
      );
      expect(page).toMatch(line);
      expect(text).toMatch(line);
    }
    // The chart and the bars are drawn on the server; the page has no script.
    expect(reportPage(report)).toMatch(/<svg[^>]*aria-label="Views and visitors per day"/);
    expect(reportPage(report)).not.toMatch(/<script/i);
  });

  it('say "no data yet" for what was not counted, never 0 % or NaN', () => {
    const counted = [row(first, "views", "", 5), row(first, "views", "/blog/zazen", 5), row(first, "visitors", "", 2)];
    for (const stores of [[], [counted]]) {
      const report = reportOf(stores);
      expect(report.figures.articles.completion).toBeUndefined();
      expect(report.figures.funnel).toBeUndefined();
      for (const shown of [visible(reportPage(report)), reportText(report)]) {
        expect(shown).toContain("Completion no data yet");
        expect(shown).toMatch(/donation pop-up: no data yet/i);
        expect(shown).toMatch(/Outbound links: no data yet/);
        expect(shown).not.toMatch(/NaN|Infinity|undefined|0\.0%/);
      }
    }
    expect(visible(reportPage(reportOf([counted])))).toMatch(/\/blog\/zazen 5 no data yet no data yet/);
  });

  it("show the site's followers on the social web per day, and its deliveries by outcome, page and terminal alike", () => {
    const [monday, tuesday, wednesday] = week.each.slice(2, 5) as [string, string, string];
    const social = [
      row(monday, "fediverse_followers", "", 0),
      row(monday, "fediverse_follows", "", 3),
      row(monday, "fediverse_delivered", "", 4),
      row(tuesday, "fediverse_followers", "", 3),
      row(tuesday, "fediverse_unfollows", "", 1),
      row(tuesday, "fediverse_failed", "", 2),
      row(tuesday, "fediverse_given_up", "", 1),
      row(wednesday, "views", "", 7),
    ];
    const report = reportOf([social]);
    expect(report.figures.fediverse?.totals).toMatchObject({
      followers: 3,
      follows: 3,
      unfollows: 1,
      delivered: 4,
      failed: 2,
      givenUp: 1,
    });
    // Only days with a count, newest first; a day's followers 0 is a count, not "none".
    expect(report.figures.fediverse?.days.map((day) => [day.day, day.followers])).toEqual([
      [tuesday, 3],
      [monday, 0],
    ]);
    const page = visible(reportPage(report));
    expect(page).toContain("Followers on the social web");
    expect(page).toContain(`${tuesday} 3 0 1 0 2 1`);
    expect(page).toContain(`${monday} 0 3 0 4 0 0`);
    const text = reportText(report);
    expect(text).toMatch(new RegExp(`${tuesday}\\s+3\\s+0\\s+1\\s+0\\s+2\\s+1`));
    expect(text).toContain("Followers 3   New 3   Left 1   Delivered 4   Failed tries 2   Given up 1");

    const none = reportOf([[row(wednesday, "views", "", 7)]]);
    expect(none.figures.fediverse).toBeUndefined();
    for (const shown of [visible(reportPage(none)), reportText(none)]) {
      expect(shown).toMatch(/Not followable \(FEDIVERSE=on\), or no data yet in this period/);
    }
  });

  it("keep generated rows to bounded lists and finite rates, and show whatever a key holds as text", () => {
    const hostile = fc.oneof(
      fc.constantFrom(
        "<script>alert(1)</script>",
        "\u001b[2J\u001b]0;owned\u0007",
        "a&amp;b",
        '"><img src=x onerror=alert(1)>',
      ),
      fc.string({ maxLength: 40 }),
    );
    const kinds = fc.constantFrom(
      "views",
      "visitors",
      "referrer",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      ...Object.values(ACTION_KINDS),
      "unknown_kind",
    );
    const pages = fc.oneof(
      fc.constantFrom("", "routes/_index", "other"),
      fc.string({ maxLength: 30 }).map((slug) => `/blog/${slug}`),
      hostile,
    );
    const day = fc.oneof(fc.constantFrom(...week.each), fc.constantFrom("2026-11-19", "2026-11-27", "not a day"));
    const rowOf = fc.record({
      day,
      kind: kinds,
      page: pages,
      key: fc.oneof(fc.constant(""), hostile),
      n: fc.nat(100_000),
    });
    fc.assert(
      fc.property(fc.array(fc.array(rowOf, { maxLength: 120 }), { maxLength: 3 }), (stores) => {
        const report = reportOf(stores);
        const { figures } = report;
        expect(figures.views).toBe(figures.daily.reduce((total, entry) => total + entry.views, 0));
        expect(figures.articles.top.length).toBeLessThanOrEqual(TOP.articles);
        expect(
          figures.articles.top.every(
            (article, index, all) =>
              article.page.startsWith("/blog/") && (index === 0 || all[index - 1]!.views >= article.views),
          ),
        ).toBe(true);
        for (const kind of ["referrer", "utm_source", "utm_medium", "utm_campaign"] as const)
          expect(figures.sources[kind].top.length).toBeLessThanOrEqual(TOP.sources);
        const rates = [
          figures.articles.completion,
          figures.articles.engagedSeconds,
          ...figures.articles.top.flatMap((article) => [article.completion, article.engagedSeconds]),
        ];
        for (const value of rates) if (value !== undefined) expect(Number.isFinite(value) && value >= 0).toBe(true);
        for (const share of [figures.articles.completion, ...figures.articles.top.map((article) => article.completion)])
          expect(share === undefined || share <= 1).toBe(true);
        const html = reportPage(report);
        expect(html).not.toMatch(/<script|<img|NaN|Infinity|undefined/i);
        const text = reportText(report);
        expect(text).not.toMatch(/NaN|Infinity|undefined/);
        expect(text.replace(/\n/g, "")).not.toMatch(/\p{Cc}/u);
      }),
      { numRuns: 80 },
    );
  });
});

describe("what a report is asked for", () => {
  it("takes a site and one of the periods once each, and says what is wrong with anything else", () => {
    expect(parseChoice({})).toEqual({ ok: true, choice: { days: 30 } });
    expect(parseChoice({ site: ["zen.example.org"], days: ["7"] })).toEqual({
      ok: true,
      choice: { site: "zen.example.org", days: 7 },
    });
    expect(parseChoice({ days: ["8"] })).toEqual({ ok: false, problem: "days must be one of 7, 30, 90" });
    expect(parseChoice({ days: ["7", "30"] })).toEqual({ ok: false, problem: "days may be given once" });
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom("site", "days", "other"),
          fc.array(fc.string({ maxLength: 300 }), { maxLength: 3 }),
        ),
        (values) => {
          const parsed = parseChoice(values);
          if (parsed.ok) {
            expect(REPORT_DAYS).toContain(parsed.choice.days);
            expect(
              parsed.choice.site === undefined || (parsed.choice.site.length >= 1 && parsed.choice.site.length <= 253),
            ).toBe(true);
          } else expect(parsed.problem).toMatch(/^(site|days) /);
        },
      ),
    );
  });

  it("from npm run report's options: usage errors say what is wrong, with exit code 2", async () => {
    const written = { out: "", err: "" };
    const stream = (name: "out" | "err") => ({ write: (text: string) => (written[name] += text) });
    expect(await runReport(["--days", "8"], stream("out"), stream("err"))).toBe(2);
    expect(written.err).toMatch(/^days must be one of 7, 30, 90\n\nnpm run report -- \[--site NAME\]/);
    expect(await runReport(["--sight", "x"], stream("out"), stream("err"))).toBe(2);
    expect(written.err).toContain("Unknown option '--sight'");
    expect(await runReport(["--help"], stream("out"), stream("err"))).toBe(0);
    expect(written.out).toMatch(/^npm run report -- /);
  });

  it("covers whole UTC days ending today", () => {
    expect(periodOf(7, new Date("2026-03-01T23:59:59Z"))).toMatchObject({ from: "2026-02-23", to: "2026-03-01" });
    expect(periodOf(90, NOW).each).toHaveLength(90);
    expect(new Set(periodOf(90, NOW).each).size).toBe(90);
  });

  it("a page that says what was wrong escapes what it repeats", () => {
    expect(problemPage("No such site", 'No site is named "<b>x</b>".', ["a.example.org"])).toContain(
      "&lt;b&gt;x&lt;/b&gt;",
    );
  });
});

describe("a site's stores", () => {
  const site = (settings: Partial<SiteSettings>) =>
    ({ label: "zen.example.org", siteDomain: undefined, blogApi: undefined, ...settings }) as SiteSettings;
  // As app/database/store-files.ts names a store: its domain, then a hash of where its articles come from.
  const nameOf = (origin: string) => (domain: string) =>
    `${domain}-${createHash("sha256")
      .update(`${origin} ${domain}`)
      .digest("base64url")
      .slice(0, 12)
      .replace(/[^a-z0-9]/gi, "0")}`;
  const backend = { url: "https://api.example.org", token: "t", timeoutMs: 1000 };
  const existing = [
    nameOf("A")("zen.example.org"),
    nameOf("A")("www2.zen.example.org"),
    nameOf("B")("zen.example.org"),
    "blog-AbCdEfGhIjKl",
    "not a store",
  ];

  it("are the one catalogue of a site with one domain, and each domain's of a site that takes its domain from the request", () => {
    expect(storesOfSite(site({ blogApi: backend }), existing, nameOf("A"))).toEqual(
      [nameOf("A")("www2.zen.example.org"), nameOf("A")("zen.example.org")].sort(),
    );
    // Another backend's catalogue for the same domain is another site's.
    expect(storesOfSite(site({ blogApi: backend }), existing, nameOf("B"))).toEqual([nameOf("B")("zen.example.org")]);
    expect(storesOfSite(site({ blogApi: backend, siteDomain: "zen.example.org" }), existing, nameOf("A"))).toEqual([
      nameOf("A")("zen.example.org"),
    ]);
    expect(storesOfSite(site({}), existing, () => "blog-AbCdEfGhIjKl")).toEqual(["blog-AbCdEfGhIjKl"]);
    expect(storesOfSite(site({}), [], () => "blog-AbCdEfGhIjKl")).toEqual([]);
  });
});

describe("Web Vitals p75", () => {
  it("is interpolated within its bucket as Prometheus does, and bounded by the buckets", () => {
    const buckets = [
      { le: 1, count: 2 },
      { le: 2.5, count: 6 },
      { le: 4, count: 8 },
      { le: Infinity, count: 8 },
    ];
    expect(histogramQuantile(0.75, buckets)).toBe(2.5);
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(1 + 1.5 * (2 / 4));
    expect(
      histogramQuantile(0.75, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeUndefined();
    expect(
      histogramQuantile(0.75, [
        { le: 1, count: 0 },
        { le: Infinity, count: 3 },
      ]),
    ).toBe(1);
    fc.assert(
      fc.property(
        fc.array(fc.nat(50), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (counts, q) => {
          let total = 0;
          const cumulative = counts.map((n, index) => ({
            le: index === counts.length - 1 ? Infinity : (index + 1) * 0.5,
            count: (total += n),
          }));
          const value = histogramQuantile(q, cumulative);
          // No observations, or all of them in +Inf with no finite bound below: nothing to say.
          if (total === 0 || counts.length === 1) expect(value).toBeUndefined();
          else {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual((counts.length - 1) * 0.5);
          }
        },
      ),
    );
  });

  it("is read per template of one site from the process's own series, with when the process started", async () => {
    const series = createSeries(client);
    for (const lcp of [1.2, 1.8, 2.2, 3.5])
      series.recorder.webVital("zen.example.org", "routes/blog.$slug", "LCP", lcp);
    series.recorder.webVital("zen.example.org", "routes/_index", "CLS", 0.3);
    series.recorder.webVital("other.example.net", "routes/blog.$slug", "LCP", 9);
    const vitals = vitalsOf(samples(await series.registry.metrics()), "zen.example.org");
    expect(vitals.since).toBeGreaterThan(Date.parse("2020-01-01"));
    expect(vitals.templates.map((template) => [template.route, template.pages])).toEqual([
      ["routes/blog.$slug", 4],
      ["routes/_index", 1],
    ]);
    const lcp = vitals.templates[0]!.metrics.find((figure) => figure.metric === "LCP")!;
    // Three of four at or below 2.5 s: the 2.5 s bucket's bound.
    expect(lcp).toEqual({ metric: "LCP", pages: 4, p75: 2.5, rating: "good" });
    expect(vitals.templates[1]!.metrics.find((figure) => figure.metric === "CLS")).toMatchObject({
      pages: 1,
      rating: "poor",
    });
    expect(vitals.templates[1]!.metrics.find((figure) => figure.metric === "LCP")).toEqual({
      metric: "LCP",
      pages: 0,
      p75: undefined,
      rating: undefined,
    });
    const report = reportOf([], { vitals });
    for (const shown of [visible(reportPage(report)), reportText(report)])
      expect(shown).toMatch(/LCP\D+4\)?\s+2\.50 s\s+good/);
  });
});

describe("the Grafana dashboard (docs/grafana)", () => {
  const dashboard = JSON.parse(readFileSync("docs/grafana/content-site.json", "utf8")) as {
    uid: string;
    title: string;
    panels: { id: number; title: string; type: string; gridPos: object; targets?: { expr: string; refId: string }[] }[];
    templating: { list: { name: string; query?: unknown }[] };
  };
  const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

  it("is a dashboard of panels with queries, each panel with its own id and place", () => {
    expect(dashboard).toMatchObject({ uid: expect.any(String), title: expect.any(String) });
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos, panel.title).toMatchObject({
        x: expect.any(Number),
        y: expect.any(Number),
        w: expect.any(Number),
        h: expect.any(Number),
      });
      if (panel.type !== "row") expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    // A p75 panel per Web Vital, and the request metrics.
    for (const metric of ["lcp_seconds", "inp_seconds", "cls", "fcp_seconds", "ttfb_seconds"]) {
      expect(
        exprs.some((expr) => expr.includes("histogram_quantile(0.75") && expr.includes(`web_vitals_${metric}_bucket`)),
        metric,
      ).toBe(true);
    }
    expect(exprs.some((expr) => expr.includes("http_request_duration_seconds"))).toBe(true);
  });

  it("queries only series the site exposes, in queries Prometheus can parse", async () => {
    const series = createSeries(client);
    const exposed = new Set((await series.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const queries = [...exprs, ...dashboard.templating.list.map((variable) => JSON.stringify(variable.query ?? ""))];
    const queried = new Set(
      queries.flatMap((expr) =>
        [...expr.matchAll(/\b((?:content_site|process|nodejs)_[a-z0-9_]+)/g)].map((match) => match[1]!),
      ),
    );
    expect([...queried].filter((name) => name.startsWith(PREFIX)).length).toBeGreaterThan(8);
    for (const name of queried) {
      const base = name.replace(/_(bucket|sum|count)$/, "");
      expect(exposed.has(name) || exposed.has(base), name).toBe(true);
    }
    // As rules, with values for Grafana's variables: promtool parses each query.
    if (prometheusMissing) return;
    const rules = exprs.map(
      (expr, index) =>
        `      - record: dashboard:query_${index}\n        expr: ${JSON.stringify(expr.replaceAll("$__rate_interval", "5m").replaceAll("$__range", "1d").replaceAll("$site", ".*"))}`,
    );
    const dir = mkdtempSync(path.join(tmpdir(), "dashboard-"));
    writeFileSync(path.join(dir, "queries.yml"), `groups:\n  - name: dashboard\n    rules:\n${rules.join("\n")}\n`);
    const check = promtool(["check", "rules", "queries.yml"], { cwd: dir });
    rmSync(dir, { recursive: true, force: true });
    expect(check.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(check.status).toBe(0);
  });
});
