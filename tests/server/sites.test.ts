import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeBackend } from "../support/fake-backend.mjs";
import { startSite, startSiteExpectingExit, waitForOutput } from "../support/site-process.mjs";
import { until } from "../support/until";

// Many sites from one process (SITES_FILE): each host is answered as its own site, by identity, embeds,
// crawler files and backend, without a trace of the others; an unknown host gets 421; a wrong sites file
// stops the server with one line per problem; SIGHUP reads the file again without a restart.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;
type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; text: string };

const scratch = mkdtempSync(path.join(tmpdir(), "sites-"));
const gammaContent = path.join(scratch, "gamma-content");
let files = 0;

/** A sites file in the scratch folder; a name given is rewritten in place (for SIGHUP). */
function sitesFile(yaml: string, file = path.join(scratch, `sites-${(files += 1)}.yaml`)) {
  writeFileSync(file, yaml);
  return file;
}

/** Settings every process of this file gets: its image cache in the scratch folder. */
const base = { IMAGE_CACHE_DIR: path.join(scratch, "images") };

/** A request with the given Host header (fetch cannot set one), as node:http sends it. */
function get(port: number, host: string, urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<Reply>((resolve, reject) => {
    http
      .request(
        { host: "127.0.0.1", port, path: urlPath, headers: { Host: host, ...headers }, agent: false },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const body = Buffer.concat(chunks);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString("utf8") });
          });
        },
      )
      .on("error", reject)
      .end();
  });
}

/** Sends SIGHUP and waits for the log line(s) it leads to, after what the process wrote before. */
async function hangUp(site: Site, expected: RegExp) {
  const from = site.output().length;
  site.child.kill("SIGHUP");
  return waitForOutput(site.output, expected, { from, timeoutMs: 5_000 });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const decode = (text: string) =>
  text
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
/** The visible text of some markup: tags and React's text separators out, spaces collapsed. */
const textOf = (html: string) =>
  decode(html.replace(/<!--.*?-->/g, "").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
const element = (html: string, tag: string) => new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`).exec(html)?.[0] ?? "";
const metaProperty = (html: string, property: string) =>
  decode(new RegExp(`<meta property="${escapeRegExp(property)}" content="([^"]*)"`).exec(html)?.[1] ?? "");
const canonical = (html: string) => decode(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? "");
const title = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
const iframes = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<iframe src="([^"]*)" title="([^"]*)"/g)].map((match) => [decode(match[2]!), decode(match[1]!)]),
  );
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
/** The Content-Security-Policy as directive name → its sources. */
const csp = (reply: Reply) =>
  Object.fromEntries(
    String(reply.headers["content-security-policy"] ?? "")
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = "", ...sources]) => [name, sources]),
  );
const xml = new XMLParser({ isArray: (name) => ["url", "sitemap", "item"].includes(name) });
const locs = (body: string): string[] => {
  const parsed = xml.parse(body) as {
    sitemapindex?: { sitemap: { loc: string }[] };
    urlset?: { url: { loc: string }[] };
  };
  return (parsed.sitemapindex?.sitemap ?? parsed.urlset?.url ?? []).map((entry) => entry.loc);
};

beforeAll(() => {
  // The third site's embedded articles: two of its own, told apart from both backends' by their titles.
  mkdirSync(gammaContent);
  const article = (slug: string, metaTitle: string, date: string) =>
    writeFileSync(
      path.join(gammaContent, `${slug}.md`),
      `---\nmetaTitle: "${metaTitle}"\nmetaDescription: "An embedded article of the gamma site."\ndate: "${date}"\n---\n\nA short body for ${slug}.\n`,
    );
  article("gamma-garden", "Gamma Garden: Raking the Gravel", "2025-03-01");
  article("gamma-bell", "Gamma Bell: Listening Practice", "2025-02-01");
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("three sites in one process", { timeout: 30_000 }, () => {
  let alphaBackend: Backend;
  let betaBackend: Backend;
  let site: Site;

  // alpha: the environment's backend and credential, its own identity and embeds, three kinds of host.
  // beta: a backend and credential of its own, its own SITE_DOMAIN, the environment's lead form and ads.
  // gamma: its own embedded articles although the environment names a backend; ads and donations off.
  const env = () => ({
    ...base,
    BLOG_API_URL: alphaBackend.url,
    BLOG_API_TOKEN: "token-a",
    AD_SCRIPT_URL: "https://ads.env-network.example/ad.js",
    DONATION_URL: "https://give.env.example/donate",
    LEAD_FORM_URL: "https://forms.env-leads.example/lead",
    LEAD_FORM_CATEGORY: "general",
  });
  const yaml = () => `
sites:
  - hosts: [alpha.example.org, www.alpha.example.org, "*.alpha.example.org"]
    SITE_PRODUCT: Alphazen
    SITE_NAME: Alpha Sangha
    SITE_URL: https://alpha.example.org
    DONATION_URL: https://give.alpha.example/donate
    LEAD_FORM_URL: https://forms.alpha-leads.example/form
    LEAD_FORM_CATEGORY: alpha-retreats
    RSS_FEED_EMBED_URL: https://board.alpha-feeds.example/board
    AD_SCRIPT_URL: https://ads.alpha-network.example/ad.js
  - hosts: [beta.example.net, "*.beta.alpha.example.org"]
    SITE_PRODUCT: Betazen
    SITE_NAME: Beta Circle
    SITE_DOMAIN: beta-domain.example
    BLOG_API_URL: ${betaBackend.url}
    BLOG_API_TOKEN: token-b
    LEAD_FORM_CATEGORY: beta-classes
    LEAD_FORM_CATEGORY_PARAM: topic
    RSS_FEED_EMBED_URL: https://board.beta-feeds.example/b
    PARTNER_LINKS: "Beta Partner|https://partner.beta.example/"
  - hosts: [gamma.example.com, special.alpha.example.org]
    SITE_PRODUCT: Gammazen
    CONTENT_DIR: ${gammaContent}
    AD_SCRIPT_URL: ""
    DONATION_URL: ~
`;

  const sites = {
    alpha: {
      host: "alpha.example.org",
      siteName: "Alpha Sangha",
      product: "Alphazen",
      origin: "https://alpha.example.org",
      donation: "https://give.alpha.example/donate",
      leadForm: "https://forms.alpha-leads.example/form?category=alpha-retreats",
      feedBoard: "https://board.alpha-feeds.example/board",
      adScript: "https://ads.alpha-network.example/ad.js",
      frameSrc: [
        "https://www.youtube-nocookie.com",
        "https://board.alpha-feeds.example",
        "https://forms.alpha-leads.example",
        "https:",
      ],
      connectSrc: ["'self'", "https:"],
      partner: "https://www.accesstoinsight.org/",
      articles: ["Alpha Article 1: Notes on Practice", "Alpha Article 2: Notes on Practice"],
      firstSlug: "backend-article-1",
    },
    beta: {
      host: "beta.example.net",
      siteName: "Beta Circle",
      product: "Betazen",
      origin: "http://beta.example.net",
      donation: "https://give.env.example/donate",
      leadForm: "https://forms.env-leads.example/lead?topic=beta-classes",
      feedBoard: "https://board.beta-feeds.example/b",
      adScript: "https://ads.env-network.example/ad.js",
      frameSrc: [
        "https://www.youtube-nocookie.com",
        "https://board.beta-feeds.example",
        "https://forms.env-leads.example",
        "https:",
      ],
      connectSrc: ["'self'", "https:"],
      partner: "https://partner.beta.example/",
      articles: ["Beta Article 1: Notes on Practice", "Beta Article 2: Notes on Practice"],
      firstSlug: "backend-article-1",
    },
    gamma: {
      host: "gamma.example.com",
      siteName: "Gammazen Buddhism",
      product: "Gammazen",
      origin: "http://gamma.example.com",
      donation: undefined,
      leadForm: "https://forms.env-leads.example/lead?category=general",
      feedBoard: undefined,
      adScript: undefined,
      frameSrc: ["https://www.youtube-nocookie.com", "https://forms.env-leads.example"],
      connectSrc: ["'self'"],
      partner: "https://www.accesstoinsight.org/",
      articles: ["Gamma Garden: Raking the Gravel", "Gamma Bell: Listening Practice"],
      firstSlug: "gamma-garden",
    },
  };
  type Name = keyof typeof sites;
  const names = Object.keys(sites) as Name[];
  const others = (name: Name) => names.filter((other) => other !== name).map((other) => sites[other]);
  const page = (host: string, urlPath: string, headers?: Record<string, string>) =>
    get(site.port, host, urlPath, headers);

  beforeAll(async () => {
    [alphaBackend, betaBackend] = await Promise.all([
      startFakeBackend({ articles: 60, token: "token-a", title: "Alpha Article" }),
      startFakeBackend({ articles: 23, token: "token-b", title: "Beta Article" }),
    ]);
    site = await startSite({ ...env(), SITES_FILE: sitesFile(yaml()) });
  }, 30_000);

  afterAll(async () => {
    await site?.stop();
    await Promise.all([alphaBackend?.close(), betaBackend?.close()]);
  });

  it.each(names)(
    "%s: the home page carries its identity, embeds and policy, and nothing of the others",
    async (name) => {
      const expected = sites[name];
      const reply = await page(expected.host, "/");
      expect(reply.status).toBe(200);
      const html = reply.text;

      expect(title(html)).toBe(`${expected.siteName} · Discover the Ancient Wisdom of ${expected.product} Buddhism`);
      expect(metaProperty(html, "og:site_name")).toBe(expected.siteName);
      expect(metaProperty(html, "og:url")).toBe(`${expected.origin}/`);
      expect(metaProperty(html, "og:image")).toBe(`${expected.origin}/share.png`);
      expect(canonical(html)).toBe(`${expected.origin}/`);
      const structured = jsonLd(html);
      expect(structured.find((item) => item["@type"] === "WebSite")).toMatchObject({
        name: expected.siteName,
        url: `${expected.origin}/`,
      });
      expect(structured.find((item) => item["@type"] === "Organization")).toMatchObject({
        name: expected.siteName,
        url: `${expected.origin}/`,
      });

      expect(textOf(element(html, "h1"))).toBe(`Discover the Ancient Wisdom of ${expected.product} Buddhism`);
      const header = textOf(element(html, "header"));
      expect(header).toContain(expected.siteName);
      expect(header).toContain(`About ${expected.product}`);
      const footer = element(html, "footer");
      expect(textOf(footer)).toContain(`© 2024 ${expected.siteName}. All rights reserved.`);
      expect(textOf(footer)).toContain(`curious about ${expected.product} Buddhism`);
      expect(footer).toContain(`href="${expected.partner}"`);

      if (expected.donation) expect(html).toContain(`href="${expected.donation}"`);
      else expect(html).toMatch(/href="\/#contact"[^>]*>Donate Now/);
      const frames = iframes(html);
      expect(frames["Contact form"]).toBe(expected.leadForm);
      expect(frames["Buddhist article feed"]).toBe(expected.feedBoard);
      // The ad network script reaches the browser through the page's data.
      if (expected.adScript) expect(html).toContain(expected.adScript);
      else expect(html).not.toContain("ad.js");
      const policy = csp(reply);
      expect(new Set(policy["frame-src"])).toEqual(new Set(expected.frameSrc));
      expect(policy["connect-src"]).toEqual(expected.connectSrc);

      // None of the other sites' names, origins, embeds or ads.
      for (const other of others(name)) {
        for (const mark of [
          other.siteName,
          other.product,
          other.origin,
          other.feedBoard,
          other.partner === expected.partner ? undefined : other.partner,
        ]) {
          if (mark) expect(html, mark).not.toContain(mark);
        }
      }
      for (const url of [
        sites.alpha.donation,
        sites.beta.donation,
        sites.alpha.adScript,
        sites.beta.adScript,
        sites.alpha.leadForm,
        sites.beta.leadForm,
      ]) {
        if (![expected.donation, expected.adScript, expected.leadForm].includes(url))
          expect(html, url).not.toContain(url);
      }
    },
  );

  it.each(names)("%s: robots.txt, the sitemap and its parts name its own origin and articles", async (name) => {
    const { host, origin, firstSlug } = sites[name];
    const robots = await page(host, "/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.text).toContain(`\nSitemap: ${origin}/sitemap.xml\n`);

    const index = await page(host, "/sitemap.xml");
    expect(index.status).toBe(200);
    expect(locs(index.text)).toEqual([`${origin}/sitemap-pages.xml`, `${origin}/sitemap-articles.xml?part=1`]);
    const pages = locs((await page(host, "/sitemap-pages.xml")).text);
    expect(pages).toContain(`${origin}/`);
    expect(pages).toContain(`${origin}/blog`);
    for (const loc of pages) expect(loc.startsWith(`${origin}/`), loc).toBe(true);
    const articles = locs((await page(host, "/sitemap-articles.xml?part=1")).text);
    expect(articles).toContain(`${origin}/blog/${firstSlug}`);
    for (const loc of articles) expect(loc.startsWith(`${origin}/blog/`), loc).toBe(true);
    if (name === "gamma") expect(articles.sort()).toEqual([`${origin}/blog/gamma-bell`, `${origin}/blog/gamma-garden`]);
  });

  it.each(names)("%s: the RSS feed and the blog list show its own name and articles", async (name) => {
    const expected = sites[name];
    const feed = await page(expected.host, "/blog/rss.xml");
    expect(feed.status).toBe(200);
    const channel = (
      xml.parse(feed.text) as {
        rss: { channel: { title: string; link: string; item: { title: string; link: string }[] } };
      }
    ).rss.channel;
    expect(channel.title).toBe(`${expected.siteName} · Blog`);
    expect(channel.link).toBe(`${expected.origin}/blog`);
    expect(channel.item.map((item) => item.title)).toEqual(expect.arrayContaining(expected.articles));
    for (const item of channel.item) expect(item.link.startsWith(`${expected.origin}/blog/`), item.link).toBe(true);

    const list = await page(expected.host, "/blog");
    expect(list.status).toBe(200);
    expect(title(list.text)).toContain(expected.siteName);
    for (const article of expected.articles) expect(decode(list.text)).toContain(article);
    for (const other of others(name))
      for (const article of other.articles) expect(decode(list.text), article).not.toContain(article);
    for (const text of [feed.text, list.text]) expect(text).not.toContain("Backend Article");

    const article = await page(expected.host, `/blog/${expected.firstSlug}`);
    expect(article.status).toBe(200);
    expect(title(article.text)).toContain(expected.articles[0]);
    expect(canonical(article.text)).toBe(`${expected.origin}/blog/${expected.firstSlug}`);
  });

  it("/share.png is drawn with each site's name: different bytes per site, the same for two hosts of one site", async () => {
    const [alpha, beta, gamma, www] = await Promise.all(
      [sites.alpha.host, sites.beta.host, sites.gamma.host, "www.alpha.example.org"].map((host) =>
        page(host, "/share.png"),
      ),
    );
    for (const reply of [alpha, beta, gamma, www]) {
      expect(reply!.status).toBe(200);
      expect(reply!.headers["content-type"]).toBe("image/png");
      expect(reply!.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
        true,
      );
    }
    expect(alpha!.body.equals(beta!.body)).toBe(false);
    expect(alpha!.body.equals(gamma!.body)).toBe(false);
    expect(beta!.body.equals(gamma!.body)).toBe(false);
    expect(www!.body.equals(alpha!.body)).toBe(true);
  });

  it("each backend is asked with its own site's domain and credential, never another's; embedded articles ask none", async () => {
    const before = { alpha: alphaBackend.calls().length, beta: betaBackend.calls().length };
    // Addresses no test asked before, so that each is a backend call of its own.
    for (const [host, urlPath] of [
      ["alpha.example.org", "/blog/backend-article-31"],
      ["www.calls.alpha.example.org", "/blog?page=4"],
      ["beta.example.net", "/blog"],
      ["beta.example.net", "/blog/backend-article-17"],
      ["gamma.example.com", "/blog/gamma-bell"],
    ] as const) {
      expect((await page(host, urlPath)).status, `${host}${urlPath}`).toBe(200);
    }
    const alphaCalls = alphaBackend.calls().slice(before.alpha);
    const betaCalls = betaBackend.calls().slice(before.beta);
    expect(alphaCalls).toContainEqual(
      expect.objectContaining({ path: "/get_details", query: { slug: "backend-article-31" } }),
    );
    // www. is left out of the domain; the other list pages may already be in the data cache (sitemaps ask for them).
    expect(alphaCalls).toContainEqual(
      expect.objectContaining({ path: "/get_metainfo", query: { domain: "calls.alpha.example.org", page: "4" } }),
    );
    expect(betaBackend.calls()).toContainEqual(
      expect.objectContaining({ path: "/get_metainfo", query: { domain: "beta-domain.example", page: "1" } }),
    );
    expect(betaCalls).toContainEqual(
      expect.objectContaining({ path: "/get_details", query: { slug: "backend-article-17" } }),
    );
    expect(alphaCalls.some((call) => call.query.slug?.startsWith("gamma"))).toBe(false);
    expect(betaCalls.some((call) => call.query.slug?.startsWith("gamma"))).toBe(false);

    // Over every call of this process so far: each backend saw its own site's credential and domain only.
    expect(alphaBackend.calls().length).toBeGreaterThan(5);
    expect(betaBackend.calls().length).toBeGreaterThan(5);
    for (const call of alphaBackend.calls()) {
      expect(call.authorization).toBe("Bearer token-a");
      if (call.path === "/get_metainfo") expect(call.query.domain).toMatch(/^(?:[a-z0-9-]+\.)*alpha\.example\.org$/);
    }
    for (const call of betaBackend.calls()) {
      expect(call.authorization).toBe("Bearer token-b");
      if (call.path === "/get_metainfo") expect(call.query.domain).toBe("beta-domain.example");
    }
  });

  it("a www. host and a *.pattern host are their site's; an exact name wins over a pattern, the most specific pattern over a wider one", async () => {
    const cases: [host: string, name: Name][] = [
      ["www.alpha.example.org", "alpha"],
      ["retreats.alpha.example.org", "alpha"],
      ["a.b.alpha.example.org", "alpha"],
      ["beta.alpha.example.org", "alpha"],
      ["special.alpha.example.org", "gamma"],
      ["x.beta.alpha.example.org", "beta"],
      ["deep.x.beta.alpha.example.org", "beta"],
      ["GAMMA.Example.COM", "gamma"],
      ["gamma.example.com.", "gamma"],
    ];
    for (const [host, name] of cases) {
      const reply = await page(host, "/");
      expect(reply.status, host).toBe(200);
      expect(metaProperty(reply.text, "og:site_name"), host).toBe(sites[name].siteName);
    }
    // alpha has SITE_URL: every host of it names that origin.
    expect(canonical((await page("www.alpha.example.org", "/blog")).text)).toBe("https://alpha.example.org/blog");
    // The backend is asked about the host the reader used, as the environment's site would be.
    const before = alphaBackend.calls().length;
    await page("retreats.alpha.example.org", "/blog");
    expect(alphaBackend.calls().slice(before)).toContainEqual(
      expect.objectContaining({
        path: "/get_metainfo",
        query: { domain: "retreats.alpha.example.org", page: "1" },
        authorization: "Bearer token-a",
      }),
    );
  });

  it("a Host with a port finds its site; the origin without SITE_URL keeps the port, the backend domain does not", async () => {
    const gamma = await page("gamma.example.com:8080", "/");
    expect(gamma.status).toBe(200);
    expect(metaProperty(gamma.text, "og:site_name")).toBe("Gammazen Buddhism");
    expect(canonical(gamma.text)).toBe("http://gamma.example.com:8080/");
    const alpha = await page("www.port.alpha.example.org:8443", "/blog?page=2");
    expect(alpha.status).toBe(200);
    expect(canonical(alpha.text)).toBe("https://alpha.example.org/blog?page=2");
    expect(alphaBackend.calls()).toContainEqual(
      expect.objectContaining({ path: "/get_metainfo", query: { domain: "port.alpha.example.org", page: "2" } }),
    );
    const beta = await page("beta.example.net:3000", "/");
    expect(metaProperty(beta.text, "og:url")).toBe("http://beta.example.net:3000/");
  });

  it("an unknown host gets 421 before any page or backend call; a malformed Host gets 400", async () => {
    const before = { alpha: alphaBackend.calls().length, beta: betaBackend.calls().length };
    for (const host of [
      "unknown.example.org",
      "example.org",
      "alpha.example.org.evil.test",
      "example.net",
      "localhost",
      "127.0.0.1",
    ]) {
      for (const urlPath of [
        "/",
        "/blog",
        "/blog/backend-article-40",
        "/sitemap-articles.xml?part=1",
        "/favicon.svg",
      ]) {
        const reply = await page(host, urlPath);
        expect(reply.status, `${host}${urlPath}`).toBe(421);
        expect(reply.headers["content-type"]).toMatch(/^text\/plain/);
        expect(reply.text).toBe("Misdirected Request: unknown host\n");
      }
    }
    for (const host of ["bad host", "alpha.example.org:99999", "-alpha.example.org", "a..b"]) {
      expect((await page(host, "/blog")).status, host).toBe(400);
    }
    expect(alphaBackend.calls().length).toBe(before.alpha);
    expect(betaBackend.calls().length).toBe(before.beta);
  });

  it("the pages outside the routes are the host's site's too: a missing page, an undecodable address", async () => {
    const missing = await page("beta.example.net", "/no-such-page");
    expect(missing.status).toBe(404);
    expect(textOf(element(missing.text, "header"))).toContain("Beta Circle");
    expect(missing.text).not.toContain("Alpha Sangha");
    const undecodable = await page("gamma.example.com", "/%E0%A4%A");
    expect(undecodable.status).toBe(400);
    expect(title(undecodable.text)).toBe("This address cannot be read · Gammazen Buddhism");
  });
});

// Each a short-lived process of its own, one after another: started all at once they only compete for the CPU.
describe("a wrong sites file stops the server", () => {
  const HEADER = "The site cannot start: the sites file is wrong:";

  /** Starts a server on `file` and expects exit code 1 with the header and exactly these problem lines. */
  async function expectRefused(file: string, problems: string[], env: Record<string, string> = {}) {
    const { code, output } = await startSiteExpectingExit({ ...base, SITES_FILE: file, ...env });
    expect(code, output).toBe(1);
    const [header, ...listed] = output.split("\n").filter(Boolean);
    expect(header, output).toBe(HEADER);
    expect(new Set(listed)).toEqual(new Set(problems.map((problem) => `  - ${problem}`)));
    expect(listed).toHaveLength(problems.length);
  }

  it("a missing file", async () => {
    const file = path.join(scratch, "no-such-sites.yaml");
    await expectRefused(file, [`SITES_FILE ${file} cannot be read: ENOENT`]);
  }, 30_000);

  it("a file that is not YAML", async () => {
    const file = sitesFile("sites:\n  - hosts: [zen.example.org\n    SITE_NAME: Zen\n");
    const { code, output } = await startSiteExpectingExit({ ...base, SITES_FILE: file });
    expect(code, output).toBe(1);
    const [header, ...problems] = output.split("\n").filter(Boolean);
    expect(header).toBe(HEADER);
    // The parser may find more than one thing wrong: each is a line of its own.
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems)
      expect(problem).toMatch(new RegExp(`^  - ${escapeRegExp(file)} is not valid YAML: \\S`));
  }, 30_000);

  it.each([
    ["an empty file", ""],
    ["no sites key", "hosts: [zen.example.org]\n"],
    ["an empty list", "sites: []\n"],
    ["sites that is not a list", "sites: zen.example.org\n"],
    ["a list at the top", "- hosts: [zen.example.org]\n"],
  ])(
    "%s",
    async (_label, yaml) => {
      const file = sitesFile(yaml);
      await expectRefused(file, [`${file} must have a list "sites:" with at least one site`]);
    },
    30_000,
  );

  it("wrong fields: every problem, each naming its site and setting", async () => {
    const missingDir = path.join(scratch, "no-such-folder");
    const file = sitesFile(`
sites:
  - hosts: [zen.example.org]
    DONATION_URL: not-a-url
    PORT: 8080
    FOO: bar
  - hosts: [ok.example.org, "bad host", "zen.example.org:8080"]
  - hosts: []
    SITE_PRODUCT: Nowhere
  - hosts: [c.example.org]
    CONTENT_DIR: ${missingDir}
  - hosts: [d.example.org]
    CONTENT_DIR: ${gammaContent}
    BLOG_API_URL: http://127.0.0.1:9/
    BLOG_API_TOKEN: its-own
  - hosts: [e.example.org]
    BLOG_API_URL: http://127.0.0.1:9/other
  - hosts: [f.example.org]
    SITE_PRODUCT: [a, b]
    LEAD_FORM_URL: "javascript:alert(1)"
    SITE_DOMAIN: "not a domain!"
    PARTNER_LINKS: "no pipe here"
  - just a string
  - SITE_NAME: No hosts key
`);
    // The environment's backend and credential: e.example.org names another backend, so must bring its own.
    await expectRefused(
      file,
      [
        "site zen.example.org: DONATION_URL must be an absolute http:// or https:// URL",
        "site zen.example.org: PORT applies to the whole process: set it in the environment",
        "site zen.example.org: FOO is not a setting a site can have",
        'site ok.example.org: hosts has "bad host": each must be a host name such as zen.example.org or a pattern such as *.example.org, without port',
        'site ok.example.org: hosts has "zen.example.org:8080": each must be a host name such as zen.example.org or a pattern such as *.example.org, without port',
        "site number 3: hosts must list at least one host name, such as [zen.example.org]",
        `site c.example.org: CONTENT_DIR has no folder at ${missingDir}`,
        "site d.example.org: set BLOG_API_URL or CONTENT_DIR, not both: a site has one source of articles",
        "site e.example.org: BLOG_API_TOKEN is required when BLOG_API_URL is set",
        "site f.example.org: SITE_PRODUCT must be text",
        "site f.example.org: LEAD_FORM_URL must be an absolute http:// or https:// URL",
        "site f.example.org: SITE_DOMAIN must be a bare host name such as zen.example.org",
        'site f.example.org: PARTNER_LINKS must be a comma-separated list of "Name|https://url" pairs',
        "site number 8: must be a mapping with hosts and settings",
        "site number 9: hosts must list at least one host name, such as [zen.example.org]",
      ],
      { BLOG_API_URL: "http://127.0.0.1:9/", BLOG_API_TOKEN: "env-token" },
    );
  }, 30_000);

  it("two sites claiming one host, one pattern or one SITE_URL", async () => {
    const file = sitesFile(`
sites:
  - hosts: [zen.example.org]
  - hosts: [calm.example.org, Zen.Example.org.]
  - hosts: [x.example.org, "*.shared.example"]
  - hosts: [y.example.org, "*.shared.example"]
  - hosts: [one.example.org]
    SITE_URL: https://one.example
  - hosts: [two.example.org]
    SITE_URL: https://one.example/somewhere
`);
    await expectRefused(file, [
      "site calm.example.org: hosts has zen.example.org, which site zen.example.org has too",
      "site y.example.org: hosts has *.shared.example, which site x.example.org has too",
      "site two.example.org: SITE_URL https://one.example is site one.example.org's too",
    ]);
  }, 30_000);

  // Named by the text the operator wrote first, which finds the entry in the file more easily than a number.
  it("a site whose first host is not valid is named by that text", async () => {
    const file = sitesFile(`
sites:
  - hosts: [zen.example.org]
  - hosts: ["bad host", ok.example.org]
`);
    await expectRefused(file, [
      'site bad host: hosts has "bad host": each must be a host name such as zen.example.org or a pattern such as *.example.org, without port',
    ]);
  }, 30_000);

  it("ALLOWED_HOSTS together with SITES_FILE", async () => {
    const file = sitesFile("sites:\n  - hosts: [zen.example.org]\n");
    const { code, output } = await startSiteExpectingExit({
      ...base,
      SITES_FILE: file,
      ALLOWED_HOSTS: "zen.example.org",
    });
    expect(code, output).toBe(1);
    expect(output).toContain("The site cannot start: these settings are wrong");
    expect(output).toContain(
      "  - ALLOWED_HOSTS must be unset with SITES_FILE: the hosts of the sites file are the allowed hosts\n",
    );
  }, 30_000);
});

describe("SIGHUP reads the sites file again", () => {
  let alphaBackend: Backend;
  let betaBackend: Backend;

  beforeAll(async () => {
    [alphaBackend, betaBackend] = await Promise.all([
      startFakeBackend({ token: "token-a", title: "Alpha Article" }),
      startFakeBackend({ token: "token-b", title: "Beta Article" }),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([alphaBackend?.close(), betaBackend?.close()]);
  });

  const alphaEnv = () => ({ ...base, BLOG_API_URL: alphaBackend.url, BLOG_API_TOKEN: "token-a" });
  const calmSite = () => `
  - hosts: [calm.example.org]
    SITE_PRODUCT: Calmzen
    BLOG_API_URL: ${betaBackend.url}
    BLOG_API_TOKEN: token-b`;

  /** Backend calls (of both backends) while `action` runs, with a moment for a background refresh. */
  async function callsDuring(action: () => Promise<unknown>) {
    const before = alphaBackend.calls().length + betaBackend.calls().length;
    await action();
    await new Promise((resolve) => setTimeout(resolve, 100));
    return alphaBackend.calls().length + betaBackend.calls().length - before;
  }

  async function withSite(
    yaml: string,
    env: Record<string, string>,
    test: (site: Site, file: string) => Promise<void>,
  ) {
    const file = sitesFile(yaml);
    const site = await startSite({ ...env, SITES_FILE: file });
    try {
      await test(site, file);
    } finally {
      await site.stop();
    }
  }

  it("adds a site (421 before, 200 after) and removes one (421 after)", async () => {
    const zen = "\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: Zenone";
    const fresh = `\n  - hosts: [new.example.org]\n    SITE_PRODUCT: Newsite\n    CONTENT_DIR: ${gammaContent}`;
    await withSite(`sites:${zen}`, alphaEnv(), async (site, file) => {
      expect((await get(site.port, "new.example.org", "/")).status).toBe(421);
      sitesFile(`sites:${zen}${fresh}`, file);
      await hangUp(site, /SIGHUP: 2 sites; added new\.example\.org; changed none; removed none\n/);
      const added = await get(site.port, "new.example.org", "/blog");
      expect(added.status).toBe(200);
      expect(title(added.text)).toContain("Newsite Buddhism");
      expect(decode(added.text)).toContain("Gamma Garden: Raking the Gravel");
      expect(title((await get(site.port, "zen.example.org", "/")).text)).toContain("Zenone Buddhism");

      sitesFile(`sites:${fresh}`, file);
      await hangUp(site, /SIGHUP: 1 sites; added none; changed none; removed zen\.example\.org\n/);
      expect((await get(site.port, "zen.example.org", "/")).status).toBe(421);
      expect((await get(site.port, "new.example.org", "/")).status).toBe(200);
    });
  }, 30_000);

  it("a removed site's catalogue stops syncing at the reload, an added one starts at it, a kept one goes on", async () => {
    // Head checks every second; each site names its domain, so its sync starts with it rather than at a first request.
    const env = { ...alphaEnv(), CATALOGUE_SYNC: "on", CACHE_FRESH_SECONDS: "1", CATALOGUE_CALLS_PER_SECOND: "100" };
    const onAlpha = (host: string) => `\n  - hosts: [${host}]\n    SITE_DOMAIN: ${host}`;
    const calm = `${calmSite()}\n    SITE_DOMAIN: calm.example.org`;
    const listsOf = (backend: Backend, domain: string, from: number) =>
      backend.calls().filter((call) => call.at >= from && call.path === "/get_metainfo" && call.query.domain === domain)
        .length;
    const bodies = (backend: Backend, from: number) =>
      backend.calls().filter((call) => call.at >= from && call.path === "/get_details").length;
    const started = Date.now();
    await withSite(`sites:${onAlpha("zen.example.org")}${onAlpha("still.example.org")}`, env, async (site, file) => {
      // Both syncing: every body fetched, and head checks going on.
      await expect.poll(() => bodies(alphaBackend, started), { interval: 50, timeout: 10_000 }).toBe(46);
      await expect
        .poll(() => listsOf(alphaBackend, "zen.example.org", started), { interval: 50, timeout: 10_000 })
        .toBeGreaterThanOrEqual(4);
      expect(listsOf(betaBackend, "calm.example.org", started)).toBe(0);

      sitesFile(`sites:${onAlpha("still.example.org")}${calm}`, file);
      await hangUp(site, /SIGHUP: 2 sites; added calm\.example\.org; changed none; removed zen\.example\.org\n/);
      const reloaded = Date.now();
      // The added site's first list call comes at the reload, not at a head check or a request later.
      await expect
        .poll(() => listsOf(betaBackend, "calm.example.org", reloaded - 100), { interval: 20, timeout: 500 })
        .toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // A call already on its way at the reload may land just after the log line: none later.
      expect(listsOf(alphaBackend, "zen.example.org", reloaded + 100)).toBe(0);
      expect(listsOf(alphaBackend, "still.example.org", reloaded + 100)).toBeGreaterThanOrEqual(1);
      expect(bodies(betaBackend, reloaded - 100)).toBe(23);
      expect(bodies(alphaBackend, reloaded + 100)).toBe(0);
    });
  }, 30_000);

  it("a removed followable site stops looking for new articles to send at the reload", async () => {
    const zen = "\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: Zenone";
    const followable = `
  - hosts: [follow.example.org]
    SITE_PRODUCT: Followzen
    SITE_URL: https://follow.example.org
    FEDIVERSE: "on"
    BLOG_API_URL: ${betaBackend.url}
    BLOG_API_TOKEN: token-b`;
    // Without the catalogue's sync, the lists the second backend is asked for are the publisher's, each second.
    const env = { ...alphaEnv(), CATALOGUE_SYNC: "off", CACHE_FRESH_SECONDS: "1" };
    await withSite(`sites:${zen}${followable}`, env, async (site, file) => {
      const looks = () => betaBackend.calls().filter((call) => call.path === "/get_metainfo").length;
      const first = looks();
      await until("the publisher's looks", () => (looks() >= first + 2 ? true : undefined), 15_000);
      sitesFile(`sites:${zen}`, file);
      await hangUp(site, /removed follow\.example\.org/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const stopped = looks();
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(looks()).toBe(stopped);
    });
  }, 40_000);

  it("a changed site's pages are dropped from the page cache at once; an unchanged site's are kept", async () => {
    // Every render asks the backend (CACHE_FRESH_SECONDS=0), so a render shows as a call and a page from memory as none.
    const zen = (product: string) => `\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: ${product}`;
    const env = { ...alphaEnv(), CACHE_FRESH_SECONDS: "0", PAGE_CACHE_SECONDS: "5" };
    await withSite(`sites:${zen("Oldname")}${calmSite()}`, env, async (site, file) => {
      const first = await get(site.port, "zen.example.org", "/blog");
      expect(title(first.text)).toContain("Oldname Buddhism");
      const calm = await get(site.port, "calm.example.org", "/blog");
      expect(calm.status).toBe(200);
      // Both pages are now kept: a repeat is answered from memory, with no render.
      expect(await callsDuring(() => get(site.port, "zen.example.org", "/blog"))).toBe(0);
      expect(await callsDuring(() => get(site.port, "calm.example.org", "/blog"))).toBe(0);

      sitesFile(`sites:${zen("Newname")}${calmSite()}`, file);
      await hangUp(site, /SIGHUP: 2 sites; added none; changed zen\.example\.org; removed none\n/);
      let renamed: Reply | undefined;
      expect(
        await callsDuring(async () => (renamed = await get(site.port, "zen.example.org", "/blog"))),
      ).toBeGreaterThan(0);
      expect(renamed!.status).toBe(200);
      expect(title(renamed!.text)).toContain("Newname Buddhism");
      expect(renamed!.text).not.toContain("Oldname");
      let kept: Reply | undefined;
      expect(await callsDuring(async () => (kept = await get(site.port, "calm.example.org", "/blog")))).toBe(0);
      expect(kept!.body.equals(calm.body)).toBe(true);
    });
  }, 30_000);

  it("a changed site's data caches are dropped (another backend's articles at once); an unchanged site's are kept", async () => {
    // Every request renders (PAGE_CACHE_SECONDS=0); backend replies stay fresh for a minute (the default).
    const zenOnAlpha = "\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: Zenone";
    const zenOnBeta = `${zenOnAlpha}\n    BLOG_API_URL: ${betaBackend.url}\n    BLOG_API_TOKEN: token-b`;
    await withSite(
      `sites:${zenOnAlpha}${calmSite()}`,
      { ...alphaEnv(), PAGE_CACHE_SECONDS: "0" },
      async (site, file) => {
        expect(decode((await get(site.port, "zen.example.org", "/blog")).text)).toContain(
          "Alpha Article 1: Notes on Practice",
        );
        expect(decode((await get(site.port, "calm.example.org", "/blog")).text)).toContain(
          "Beta Article 1: Notes on Practice",
        );
        // From the data cache now, though rendered anew.
        expect(await callsDuring(() => get(site.port, "zen.example.org", "/blog"))).toBe(0);
        expect(await callsDuring(() => get(site.port, "calm.example.org", "/blog"))).toBe(0);

        sitesFile(`sites:${zenOnBeta}${calmSite()}`, file);
        await hangUp(site, /SIGHUP: 2 sites; added none; changed zen\.example\.org; removed none\n/);
        const alphaBefore = alphaBackend.calls().length;
        const betaBefore = betaBackend.calls().length;
        const moved = decode((await get(site.port, "zen.example.org", "/blog")).text);
        expect(moved).toContain("Beta Article 1: Notes on Practice");
        expect(moved).not.toContain("Alpha Article");
        expect(alphaBackend.calls().length).toBe(alphaBefore);
        expect(betaBackend.calls().slice(betaBefore)).toContainEqual(
          expect.objectContaining({
            path: "/get_metainfo",
            query: { domain: "zen.example.org", page: "1" },
            authorization: "Bearer token-b",
          }),
        );
        expect(await callsDuring(() => get(site.port, "calm.example.org", "/blog"))).toBe(0);

        // A change of the product name alone drops the site's data caches too.
        sitesFile(`sites:${zenOnBeta}${calmSite().replace("Calmzen", "Stillzen")}`, file);
        await hangUp(site, /SIGHUP: 2 sites; added none; changed calm\.example\.org; removed none\n/);
        let renamed: Reply | undefined;
        expect(
          await callsDuring(async () => (renamed = await get(site.port, "calm.example.org", "/blog"))),
        ).toBeGreaterThan(0);
        expect(title(renamed!.text)).toContain("Stillzen Buddhism");
        expect(await callsDuring(() => get(site.port, "zen.example.org", "/blog"))).toBe(0);
      },
    );
  }, 30_000);

  it("a file with problems leaves the running sites as they were, logs each problem, and a later good file applies", async () => {
    const zen = (product: string, extra = "") => `\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: ${product}${extra}`;
    const notApplied = "SIGHUP: the sites file was not applied; the running sites stay as they were:\n";
    await withSite(`sites:${zen("Zenone")}`, alphaEnv(), async (site, file) => {
      expect(title((await get(site.port, "zen.example.org", "/")).text)).toContain("Zenone Buddhism");

      sitesFile(
        `sites:${zen("Zentwo", "\n    DONATION_URL: not-a-url")}\n  - hosts: [new.example.org]\n    FOO: bar`,
        file,
      );
      const logged = await hangUp(
        site,
        new RegExp(
          `${escapeRegExp(notApplied)}(  - .*\\n)*?  - site new\\.example\\.org: FOO is not a setting a site can have\\n`,
        ),
      );
      expect(logged[0]).toContain(
        "  - site zen.example.org: DONATION_URL must be an absolute http:// or https:// URL\n",
      );
      sitesFile("sites: [unclosed\n", file);
      await hangUp(site, new RegExp(`${escapeRegExp(notApplied)}  - ${escapeRegExp(file)} is not valid YAML: `));
      rmSync(file);
      await hangUp(
        site,
        new RegExp(`${escapeRegExp(notApplied)}  - SITES_FILE ${escapeRegExp(file)} cannot be read: ENOENT\\n`),
      );

      expect(site.child.exitCode).toBeNull();
      const unchanged = await get(site.port, "zen.example.org", "/");
      expect(unchanged.status).toBe(200);
      expect(title(unchanged.text)).toContain("Zenone Buddhism");
      expect(unchanged.text).not.toContain("Zentwo");
      expect((await get(site.port, "new.example.org", "/")).status).toBe(421);

      sitesFile(`sites:${zen("Zenthree")}`, file);
      await hangUp(site, /SIGHUP: 1 sites; added none; changed zen\.example\.org; removed none\n/);
      expect(title((await get(site.port, "zen.example.org", "/")).text)).toContain("Zenthree Buddhism");
    });
  }, 30_000);

  it("a request in flight when the site is renamed finishes with the site it started with", async () => {
    const slow = await startFakeBackend({ token: "token-s", latencyMs: 1500 });
    const zen = (name: string) =>
      `sites:\n  - hosts: [zen.example.org]\n    SITE_PRODUCT: ${name}zen\n    SITE_NAME: ${name} Temple\n    RSS_FEED_EMBED_URL: https://board.${name.toLowerCase()}.example/feed`;
    try {
      await withSite(
        zen("Oldname"),
        { ...base, BLOG_API_URL: slow.url, BLOG_API_TOKEN: "token-s" },
        async (site, file) => {
          let settled = false;
          const inFlight = get(site.port, "zen.example.org", "/blog").finally(() => (settled = true));
          // The page is waiting on its backend call: now the site changes under it.
          await expect.poll(() => slow.calls().length, { interval: 10, timeout: 5_000 }).toBeGreaterThan(0);
          sitesFile(zen("Newname"), file);
          await hangUp(site, /SIGHUP: 1 sites; added none; changed zen\.example\.org; removed none\n/);
          expect(settled).toBe(false);

          const old = await inFlight;
          expect(old.status).toBe(200);
          expect(title(old.text)).toBe("Blog · Oldname Temple");
          expect(textOf(element(old.text, "header"))).toContain("Oldname Temple");
          expect(textOf(element(old.text, "footer"))).toContain("curious about Oldnamezen Buddhism");
          expect(old.text).not.toContain("Newname");
          // The policy too, though it is made after the page, once the backend has answered.
          expect(csp(old)["frame-src"]).toContain("https://board.oldname.example");
          expect(csp(old)["frame-src"]).not.toContain("https://board.newname.example");

          slow.state.latencyMs = 0;
          const renamed = await get(site.port, "zen.example.org", "/blog");
          expect(renamed.status).toBe(200);
          expect(textOf(element(renamed.text, "header"))).toContain("Newname Temple");
          expect(renamed.text).not.toContain("Oldname");
          expect(csp(renamed)["frame-src"]).toContain("https://board.newname.example");
        },
      );
    } finally {
      await slow.close();
    }
  }, 30_000);
});

describe("the log, with several sites", () => {
  it("names the site of each request, and the site whose backend failed", async () => {
    const file = sitesFile(
      "sites:\n  - hosts: [down.example.org]\n    BLOG_API_URL: http://127.0.0.1:9/\n    BLOG_API_TOKEN: t\n",
    );
    const site = await startSite({ ...base, SITES_FILE: file, BLOG_API_TIMEOUT_MS: "500" });
    try {
      expect((await get(site.port, "down.example.org", "/blog")).status).toBe(503);
      expect((await get(site.port, "nobody.example.org", "/blog")).status).toBe(421);
      await waitForOutput(site.output, /"res":421/, { timeoutMs: 5_000 });
      expect(site.output()).toMatch(/Blog list page 1: down\.example\.org: get_metainfo failed/);
      expect(site.output()).toMatch(/"req":"GET \/blog","res":503,[^\n]*"site":"down\.example\.org"/);
      expect(site.output()).toMatch(/"req":"GET \/blog","res":421,(?![^\n]*"site")/);
    } finally {
      await site.stop();
    }
  }, 30_000);
});

describe("without SITES_FILE, as before", () => {
  it("any host is served as the environment's site, and SIGHUP does not stop the server", async () => {
    const site = await startSite({ ...base, SITE_PRODUCT: "Envzen" });
    try {
      for (const host of ["anything.example.test", "zen.example.org:8080"]) {
        const reply = await get(site.port, host, "/");
        expect(reply.status, host).toBe(200);
        expect(metaProperty(reply.text, "og:site_name")).toBe("Envzen Buddhism");
        expect(metaProperty(reply.text, "og:url")).toBe(`http://${host}/`);
      }
      // close-with-grace used to take SIGHUP for a shutdown: the server must log it and go on serving.
      await hangUp(site, /SIGHUP: .*\n/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(site.child.exitCode).toBeNull();
      expect(site.child.signalCode).toBeNull();
      expect(site.output()).not.toMatch(/SIGHUP: closing/);
      expect((await get(site.port, "anything.example.test", "/blog")).status).toBe(200);
    } finally {
      await site.stop();
    }
  }, 30_000);

  it("ALLOWED_HOSTS still answers any other host with 421", async () => {
    const site = await startSite({ ...base, ALLOWED_HOSTS: "zen.example.org,*.calm.example.org" });
    try {
      expect((await get(site.port, "zen.example.org", "/")).status).toBe(200);
      expect((await get(site.port, "a.calm.example.org", "/")).status).toBe(200);
      const other = await get(site.port, "other.example.org", "/");
      expect(other.status).toBe(421);
      expect(other.text).toBe("Misdirected Request: unknown host\n");
    } finally {
      await site.stop();
    }
  }, 30_000);
});
