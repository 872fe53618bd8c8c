import http from "node:http";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startFakeBackend } from "../support/fake-backend.mjs";
import { startFakeImageHost } from "../support/fake-image-host.mjs";
import { prometheusMissing, promtool, PROMETHEUS_DIR, startPrometheus } from "../support/prometheus.mjs";
import { freePort, startSite, waitForOutput } from "../support/site-process.mjs";
import { samples, type Sample } from "../support/exposition";

// Prometheus metrics (app/metrics, docs/decisions/021): a listener of their own on METRICS_PORT, series
// per site for what readers and the backend did, labels from fixed sets and the sites file only, an
// exposition promtool accepts, a real Prometheus scraping it and answering for the test's traffic, and
// the operator's alerting rules checked and unit-tested by promtool.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

const ALPHA = "alpha.example.org";
const BETA = "beta.example.net";
const scratch = mkdtempSync(path.join(tmpdir(), "metrics-"));

/** A request with the given method and Host header (fetch can set neither freely), as node:http sends it. */
function request(
  port: number,
  host: string,
  urlPath: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    http
      .request(
        { host: "127.0.0.1", port, method, path: urlPath, headers: { Host: host, ...headers }, agent: false },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              type: String(response.headers["content-type"] ?? ""),
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      )
      .on("error", reject)
      .end(body);
  });
}

const seriesKey = ({ name, labels }: Sample) => `${name}${JSON.stringify(Object.entries(labels).sort())}`;

/** The value of the one sample with this name and these labels (among others), or undefined. */
function valueOf(all: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = all.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

/** TCP ports a process listens on, with their address, from /proc (Linux). */
function listening(pid: number) {
  const sockets = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter(Boolean);
      } catch {
        return [];
      }
    }),
  );
  return ["tcp", "tcp6"]
    .flatMap((file) => readFileSync(`/proc/${pid}/net/${file}`, "utf8").trim().split("\n").slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === "0A" && sockets.has(fields[9]))
    .map((fields) => {
      const [address = "", port = ""] = fields[1]!.split(":");
      return { address: address === "0100007F" ? "127.0.0.1" : address, port: parseInt(port, 16) };
    })
    .sort((a, b) => a.port - b.port);
}

/** Label values a request may put in the request series: the sites file's, and fixed names. */
const routeIds = readdirSync("app/routes").map((file) => `routes/${file.replace(/\.tsx?$/, "")}`);
const allowed = {
  site: new Set([ALPHA, BETA, "none"]),
  route: new Set([...routeIds, "static", "health", "guard", "beacon", "other"]),
  status_class: new Set(["1xx", "2xx", "3xx", "4xx", "5xx"]),
};

/** Requests made of random names, paths, methods and headers: nothing in them may become a label. */
function hostileRequests(port: number) {
  const token = () => randomBytes(6).toString("hex");
  const tokens: string[] = [];
  const t = () => {
    const value = token();
    tokens.push(value);
    return value;
  };
  const requests = [
    () => request(port, `${t()}.example.com`, "/"),
    () => request(port, `${t()}..bad`, `/${t()}`),
    () => request(port, ALPHA, `/${t()}/${t()}?q=<script>${t()}</script>`),
    () => request(port, ALPHA, `/blog/${t()}`),
    () => request(port, BETA, `/blog/${t()}.data`),
    () => request(port, BETA, `/img/r/${t()}/100x100/${t()}.webp`),
    () => request(port, ALPHA, `/build/${t()}.js`),
    () => request(port, ALPHA, `//${t()}.example.com/`),
    () => request(port, BETA, `/%E0%A4%A${t()}`),
    () => request(port, ALPHA, `/${t()}`, { method: "POST" }),
    () => request(port, BETA, `/${t()}`, { method: "PROPFIND" }),
    () =>
      request(port, ALPHA, `/${t()}`, {
        headers: { "X-Forwarded-Host": `${t()}.evil`, "User-Agent": t(), Cookie: `a=${t()}` },
      }),
  ];
  return {
    tokens,
    run: async () => {
      for (const send of requests) await send();
    },
  };
}

describe.skipIf(prometheusMissing)("Prometheus metrics", { timeout: 30_000 }, () => {
  let alphaBackend: Backend;
  let betaBackend: Backend;
  let imageHost: Awaited<ReturnType<typeof startFakeImageHost>>;
  let site: Site;
  let metricsPort: number;
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();

  beforeAll(async () => {
    imageHost = await startFakeImageHost();
    // alpha's image links are on the image host; every seventh is dead.
    alphaBackend = await startFakeBackend({ token: "token-a", articles: 12, imageBase: imageHost.url });
    betaBackend = await startFakeBackend({ token: "token-b", articles: 12 });
    const sitesFile = path.join(scratch, "sites.yaml");
    writeFileSync(
      sitesFile,
      `sites:\n  - hosts: [${ALPHA}, "*.alpha.example.org"]\n    SITE_PRODUCT: Alphazen\n` +
        `  - hosts: [${BETA}]\n    SITE_PRODUCT: Betazen\n    BLOG_API_URL: ${betaBackend.url}\n    BLOG_API_TOKEN: token-b\n`,
    );
    metricsPort = await freePort();
    site = await startSite({
      SITES_FILE: sitesFile,
      BLOG_API_URL: alphaBackend.url,
      BLOG_API_TOKEN: "token-a",
      // Backend replies are stale after a second, so that the test can be given a stale copy.
      CACHE_FRESH_SECONDS: "1",
      IMAGE_CACHE_DIR: path.join(scratch, "images"),
      IMAGE_HOSTS: imageHost.host,
      METRICS_PORT: String(metricsPort),
    });
  }, 30_000);

  afterAll(async () => {
    await site?.stop();
    await alphaBackend?.close();
    await betaBackend?.close();
    await imageHost?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("serves /metrics on its own listener on loopback, while /metrics on the public port is the ordinary 404 page", async () => {
    expect(listening(site.child.pid!)).toEqual([
      { address: "127.0.0.1", port: Math.min(site.port, metricsPort) },
      { address: "127.0.0.1", port: Math.max(site.port, metricsPort) },
    ]);
    const exposition = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(exposition.status).toBe(200);
    expect(exposition.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await exposition.text()).toMatch(/^# HELP /);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);

    const onPublicPort = await request(site.port, ALPHA, "/metrics");
    const notFound = await request(site.port, ALPHA, "/no-such-page");
    expect(onPublicPort.status).toBe(404);
    expect(onPublicPort.type).toBe(notFound.type);
    expect(onPublicPort.text).not.toContain("# HELP");
    expect(/<title>([^<]*)<\/title>/.exec(onPublicPort.text)?.[1]).toBe(
      /<title>([^<]*)<\/title>/.exec(notFound.text)?.[1],
    );
  });

  it("has no listener without METRICS_PORT", async () => {
    const plain = await startSite({ IMAGE_CACHE_DIR: path.join(scratch, "images") });
    try {
      expect(listening(plain.child.pid!)).toEqual([{ address: "127.0.0.1", port: plain.port }]);
      expect(plain.output()).not.toContain("Metrics on");
    } finally {
      await plain.stop();
    }
  });

  it("counts per site what readers and the backend did, in an exposition promtool accepts", async () => {
    for (const host of [ALPHA, BETA]) {
      expect((await request(site.port, host, "/")).status).toBe(200);
      expect((await request(site.port, host, "/")).status).toBe(200); // from the page cache
    }
    expect((await request(site.port, ALPHA, "/blog/fault-500")).status).toBe(503);
    // beta's backend fails once its copy of an article is stale: readers get the copy.
    expect((await request(site.port, BETA, "/blog/backend-article-2")).status).toBe(200);
    betaBackend.state.detailsStatus = 500;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Data requests skip the page cache: the first gets the copy while the refresh fails, the second after.
    expect((await request(site.port, BETA, "/blog/backend-article-2.data")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await request(site.port, BETA, "/blog/backend-article-2.data")).status).toBe(200);
    betaBackend.state.detailsStatus = 200;
    const from = site.output().length;
    site.child.kill("SIGHUP");
    await waitForOutput(site.output, /SIGHUP: 2 sites/, { from });

    const exposition = await scrape();
    expect(promtool(["check", "metrics"], { input: exposition })).toEqual({ status: 0, output: "" });
    const all = samples(exposition);
    const requests = "content_site_http_request_duration_seconds_count";
    for (const host of [ALPHA, BETA]) {
      expect(valueOf(all, requests, { site: host, route: "routes/_index", status_class: "2xx" })).toBe(2);
      expect(valueOf(all, "content_site_page_cache_hits_total", { site: host })).toBe(1);
      expect(valueOf(all, "content_site_page_cache_stores_total", { site: host })).toBeGreaterThanOrEqual(1);
    }
    expect(valueOf(all, requests, { site: ALPHA, route: "routes/blog.$slug", status_class: "5xx" })).toBe(1);
    // One call as the cache sees it, its retry inside.
    expect(
      valueOf(all, "content_site_backend_calls_total", { site: ALPHA, function: "details", outcome: "http_error" }),
    ).toBe(1);
    expect(
      valueOf(all, "content_site_backend_calls_total", { site: BETA, function: "details", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(all, "content_site_backend_calls_total", { site: BETA, function: "details", outcome: "http_error" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(all, "content_site_backend_call_duration_seconds_count", { site: ALPHA, function: "details" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(all, "content_site_backend_stale_replies_total", { site: BETA, reason: "backend_failed" }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(all, "content_site_sites")).toBe(2);
    expect(valueOf(all, "content_site_sites_reloads_total", { result: "ok" })).toBe(1);
    expect(valueOf(all, "content_site_sites_last_reload_successful")).toBe(1);
    expect(valueOf(all, "content_site_page_cache_bytes")).toBeGreaterThan(0);
    // prom-client's process series.
    expect(valueOf(all, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(valueOf(all, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts the readers that waited for a backend call already in flight", async () => {
    alphaBackend.state.latencyMs = 300;
    try {
      const replies = await Promise.all(
        Array.from({ length: 5 }, () => request(site.port, ALPHA, "/blog/backend-article-9")),
      );
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      alphaBackend.state.latencyMs = 0;
    }
    const details = alphaBackend
      .calls()
      .filter((call) => call.path === "/get_details" && call.query.slug === "backend-article-9");
    expect(details).toHaveLength(1);
    expect(valueOf(samples(await scrape()), "content_site_backend_joined_calls_total", { site: ALPHA })).toBe(4);
  });

  it("counts image source fetches by outcome, copies made, disk cache hits and dead links", async () => {
    const html = (await request(site.port, ALPHA, "/blog")).text;
    const copyOf = (link: string) =>
      new RegExp(`/img/[\\w-]+/\\w+/${Buffer.from(link).toString("base64url")}/\\d+x\\d+\\.webp`).exec(html)?.[0];
    const live = copyOf(`${imageHost.url}/pin/article-1.jpg`);
    const dead = copyOf(`${imageHost.url}/dead/article-7.jpg`);
    expect(live && dead).toBeTruthy();
    expect((await request(site.port, ALPHA, live!)).status).toBe(200);
    expect((await request(site.port, ALPHA, live!)).status).toBe(200); // from the disk cache
    expect((await request(site.port, ALPHA, dead!)).status).toBe(404);

    const all = samples(await scrape());
    expect(valueOf(all, "content_site_image_source_fetches_total", { outcome: "ok" })).toBe(1);
    expect(valueOf(all, "content_site_image_source_fetches_total", { outcome: "unavailable" })).toBe(1);
    expect(valueOf(all, "content_site_image_variants_made_total", { format: "webp" })).toBe(1);
    expect(valueOf(all, "content_site_image_disk_cache_hits_total")).toBe(1);
    expect(valueOf(all, "content_site_image_disk_cache_bytes")).toBeGreaterThan(0);
    expect(valueOf(all, "content_site_image_dead_links")).toBe(1);
    expect(
      valueOf(all, "content_site_http_request_duration_seconds_count", {
        site: ALPHA,
        route: "routes/img.$",
        status_class: "2xx",
      }),
    ).toBe(2);
  });

  it("are each explained in docs/monitoring.md's table of series", async () => {
    const page = readFileSync("docs/monitoring.md", "utf8");
    // The table of series: its rows, from its header to the first line that is not a row.
    const start = page.indexOf("| series | type | labels | meaning |");
    expect(start, "docs/monitoring.md has the table of series").toBeGreaterThanOrEqual(0);
    const rows: string[] = [];
    for (const line of page.slice(start).split("\n")) {
      if (!line.startsWith("|")) break;
      rows.push(line);
    }
    const monitoring = rows.join("\n");
    const names = new Set(
      samples(await scrape())
        .map((sample) => sample.name.replace(/_(bucket|sum|count)$/, ""))
        .filter((name) => name.startsWith("content_site_")),
    );
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(monitoring, name).toContain(`\`${name}\``);
  });

  it("takes label values from the sites file and fixed sets only: unknown hosts, paths and hostile input add no series", async () => {
    const first = hostileRequests(site.port);
    await first.run();
    const before = await scrape();
    const second = hostileRequests(site.port);
    await second.run();
    const after = await scrape();
    // The process series (handles by type, GC by kind) come and go with the work; the site's own do not.
    const own = (exposition: string) =>
      samples(exposition)
        .filter((sample) => sample.name.startsWith("content_site_"))
        .map(seriesKey)
        .sort();
    expect(own(after)).toEqual(own(before));
    for (const token of [...first.tokens, ...second.tokens]) expect(after).not.toContain(token);
    for (const sample of samples(after)) {
      for (const [name, values] of Object.entries(allowed)) {
        if (sample.labels[name] !== undefined)
          expect(values, `${name} of ${sample.name}`).toContain(sample.labels[name]);
      }
    }
  });

  it("is scraped by a real Prometheus, whose queries answer for the traffic and whose alerting rules evaluate", async () => {
    // A reader's Web Vitals beacon (app/vitals), so that the series the LCP rule reads exist.
    const vitals = JSON.stringify({
      v: 1,
      kind: "vitals",
      path: "/blog/backend-article-2",
      metrics: { LCP: [1800, "main>img"] },
    });
    const headers = {
      "Content-Type": "text/plain",
      "Sec-Fetch-Site": "same-origin",
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0.0.0 Safari/537.36",
    };
    expect((await request(site.port, ALPHA, "/__beacon", { method: "POST", headers, body: vitals })).status).toBe(204);
    const prometheus = await startPrometheus({ targets: [`127.0.0.1:${metricsPort}`] });
    try {
      // Until a scrape and an evaluation of every rule have happened.
      const deadline = Date.now() + 15_000;
      const evaluated = async () => {
        const { groups } = (await prometheus.api("/api/v1/rules")) as {
          groups: { rules: { lastEvaluation: string }[] }[];
        };
        return groups.flatMap((group) => group.rules).every((rule) => !rule.lastEvaluation.startsWith("0001"));
      };
      while ((await prometheus.query('up{job="content-site"} == 1')).length === 0 || !(await evaluated())) {
        if (Date.now() > deadline) throw new Error(`no scrape within 15 s: ${prometheus.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }

      const perSite = await prometheus.query(
        'sum by (site) (content_site_http_request_duration_seconds_count{route="routes/_index",status_class="2xx"})',
      );
      expect(Object.fromEntries(perSite.map((sample) => [sample.labels.site, sample.value]))).toEqual({
        [ALPHA]: 2,
        [BETA]: 2,
      });
      const failures = await prometheus.query(`content_site_backend_calls_total{site="${ALPHA}",outcome!="ok"}`);
      expect(
        failures.map(({ labels, value }) => ({ function: labels.function, outcome: labels.outcome, value })),
      ).toEqual([{ function: "details", outcome: "http_error", value: 1 }]);
      const hits = await prometheus.query("sum by (site) (content_site_page_cache_hits_total)");
      expect(Object.fromEntries(hits.map((sample) => [sample.labels.site, sample.value]))).toEqual({
        [ALPHA]: 1,
        [BETA]: 1,
      });

      // Every rule evaluates without error, on series the origin really exposes.
      const { groups } = (await prometheus.api("/api/v1/rules")) as {
        groups: { rules: { name: string; health: string; query: string }[] }[];
      };
      const rules = groups.flatMap((group) => group.rules);
      expect(rules.map((rule) => [rule.name, rule.health])).toEqual(rules.map((rule) => [rule.name, "ok"]));
      const exposed = new Set(samples(await scrape()).map((sample) => sample.name));
      exposed.add("up");
      for (const rule of rules) {
        for (const name of rule.query.match(/\b(?:content_site|nodejs|process|up)\w*(?=\{|\[|\s|\)|$)/g) ?? []) {
          expect(exposed, `${rule.name} reads ${name}`).toContain(name);
        }
      }
    } finally {
      await prometheus.stop();
    }
  });
});

describe.skipIf(prometheusMissing)("the operator's Prometheus files (docs/prometheus)", () => {
  it("are a valid configuration and valid alerting rules", () => {
    const config = promtool(["check", "config", "prometheus.yml"]);
    expect(config.status, config.output).toBe(0);
    const rules = promtool(["check", "rules", "alerts.yml"]);
    expect(rules.status, rules.output).toBe(0);
    const { groups } = parse(readFileSync(path.join(PROMETHEUS_DIR, "alerts.yml"), "utf8")) as {
      groups: { rules: { alert: string }[] }[];
    };
    expect(groups.flatMap((group) => group.rules.map((rule) => rule.alert))).toEqual([
      "SiteMetricsDown",
      "SiteBackendFailing",
      "SiteServingStaleCopies",
      "SiteErrorRateHigh",
      "SiteEventLoopLag",
      "SiteMemoryHigh",
      "SitesFileReloadFailed",
      "SiteSlowLargestContentfulPaint",
    ]);
  });

  it("alert when they should and not before, by their unit tests", () => {
    const result = promtool(["test", "rules", "alerts.test.yml"]);
    expect(result.status, result.output).toBe(0);
  });
});
