// A local stand-in for the hosted blog backend (get_metainfo, get_details), for tests and benchmarks.
// It answers as the spec says, records every call, and has slugs that misbehave on purpose.
// Run alone: node tests/support/fake-backend.mjs --port 4101 [--latency 20] [--articles 23]
import http from "node:http";
import { pathToFileURL } from "node:url";
import { xssFieldPayloads, xssPayloads } from "./xss-payloads.mjs";
import { listenOnLoopback } from "./loopback.mjs";

export const FAKE_TOKEN = "test-public-token";

/** Slugs with a designed fault, for tests of the failure paths. */
export const faultSlugs = {
  "fault-500": "answers 500",
  "fault-401": "answers 401",
  "fault-hang": "never answers",
  "fault-slow": "answers after 1.5 s",
  "fault-not-json": "answers 200 with HTML",
  "fault-truncated": "answers 200 with cut-off JSON",
  "fault-wrong-types": "answers 200 with fields of the wrong type",
  "fault-null": "answers 200 with null (no article)",
  "fault-huge": "answers 200 with a 5 MB body",
};

/**
 * Deterministic articles, newest first: backend-article-1 is the newest. With `imageBase` (the fake
 * image host), image links point there, and every seventh article's link is dead (404).
 */
export function makeArticles(count, imageBase) {
  return Array.from({ length: count }, (_, index) => makeArticle(index + 1, imageBase));
}

/** A paragraph of filler prose (about 600 characters) for articles of a realistic length. */
const FILLER =
  "Sitting still, the breath comes and goes on its own. Thoughts arise, linger and pass; each time the mind wanders, " +
  "it is brought back without blame, gently, to the breath at the belly. Practice is not about stopping thought but " +
  "about seeing it clearly, again and again, until seeing is all there is. The bell rings, and the body stands, " +
  "walks slowly around the hall, and sits down again. Nothing special happens, and that is the point: ordinary " +
  "mind, ordinary moments, met fully. Over weeks and months the habit of returning grows stronger than the habit of leaving.";

/**
 * Article n (1 = newest), made on demand, so a backend of 100,000 articles builds only what is asked.
 * With `bodyKb`, its body is padded with prose to about that many kilobytes.
 */
export function makeArticle(n, imageBase, bodyKb = 0) {
  const day = new Date(Date.UTC(2024, 11, 31) - (n - 1) * 86_400_000 * 7);
  return {
    id: `id-${n}`,
    slug: `backend-article-${n}`,
    metaTitle: `Backend Article ${n}: Notes on Practice`,
    metaDescription: `Description of backend article ${n}, served by the fake backend for tests.`,
    date: day.toISOString().slice(0, 10),
    pinterestImageLink: n % 4 === 0 ? null : imageLink(n, imageBase),
    youtubeShortsUrl: n === 1 ? "https://www.youtube.com/shorts/abc_DEF-123" : n === 2 ? "https://vimeo.com/123" : null,
    shortTailKeywords: n % 3 === 0 ? null : "zen, meditation , ,practice",
    longTailKeywords: n % 5 === 0 ? "" : "how to sit zazen, finding a teacher",
    blog:
      `## Section for ${n}\n\nA paragraph with [a link](https://example.org/${n}) and <img src=x onerror="alert(1)">.\n\n> A quote.\n\n- one\n- two\n\n1. first\n2. second\n` +
      `\n${FILLER}\n`.repeat(Math.ceil((bodyKb * 1024) / (FILLER.length + 2))),
  };
}

/** The number in a slug of makeArticle's form, when it is one of the first `count` articles. */
function articleNumber(slug, count) {
  const match = /^backend-article-([1-9]\d*)$/.exec(slug);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= count ? n : undefined;
}

function imageLink(n, imageBase) {
  if (!imageBase) return `https://images.example.test/article-${n}.jpg`;
  return n % 7 === 0 ? `${imageBase}/dead/article-${n}.jpg` : `${imageBase}/pin/article-${n}.jpg`;
}

/** A short article as the backend lists it, for tests that publish, change and remove articles by slug. */
export function teaching(slug, description) {
  return {
    id: slug,
    slug,
    metaTitle: `Teaching ${slug}`,
    metaDescription: description,
    date: "2026-11-01",
    blog: "Words.",
  };
}

/** How many XSS payloads one hostile article holds: few page loads, yet each article stays readable. */
export const XSS_PAYLOADS_PER_ARTICLE = 20;

/**
 * Articles made of hostile markdown (tests/support/xss-payloads.mjs): xss-0 … xss-N hold the body
 * payloads, xss-fields has hostile values in every other field. Only get_details knows them, so the
 * list, the sitemap and the feed stay as they were.
 */
export function makeXssArticles() {
  const articles = [];
  for (let start = 0; start < xssPayloads.length; start += XSS_PAYLOADS_PER_ARTICLE) {
    const payloads = xssPayloads.slice(start, start + XSS_PAYLOADS_PER_ARTICLE);
    const index = articles.length;
    articles.push({
      slug: `xss-${index}`,
      payloads,
      details: {
        metaTitle: `Hostile markdown ${index}`,
        metaDescription: `Payloads ${start} to ${start + payloads.length - 1} of the XSS corpus.`,
        date: "2024-01-01",
        pinterestImageLink: null,
        youtubeShortsUrl: null,
        shortTailKeywords: null,
        longTailKeywords: null,
        blog: hostileBody(payloads),
      },
    });
  }
  articles.push({ slug: "xss-fields", payloads: [], details: { ...xssFieldPayloads } });
  return articles;
}

/**
 * Each payload twice: once in a list item of its own, where an unclosed fence or HTML block ends with
 * the item and cannot hide the next payload, and once at the top level, one after another.
 */
function hostileBody(payloads) {
  const isolated = payloads.map((payload) => `- ${payload.split("\n").join("\n  ")}`).join("\n\n");
  return `## Each payload on its own\n\n${isolated}\n\n## The payloads one after another\n\n${payloads.join("\n\n")}\n`;
}

/**
 * Starts the fake backend on 127.0.0.1. Options: port (0 = any), articles (count), latencyMs,
 * total (override the reported total), listStatus (force a status for get_metainfo), imageBase
 * (image links on the fake image host, tests/support/fake-image-host.mjs), token (the credential it
 * accepts, FAKE_TOKEN by default), title (what article titles start with, "Backend Article" by default:
 * a second backend with another title tells its articles apart), bodyKb (article bodies padded to about
 * that size), bom (JSON replies after a UTF-8 byte order mark; also `state.bom`), content (articles to
 * serve instead of the generated ones, newest first, each with id, slug and the details' fields).
 */
export async function startFakeBackend(options = {}) {
  const content = options.content;
  /** How many articles there are: `content` may grow while the backend runs (a new article is published). */
  let count = content?.length ?? options.articles ?? 23;
  const token = options.token ?? FAKE_TOKEN;
  const titled = (fields) =>
    options.title ? { ...fields, metaTitle: fields.metaTitle.replace("Backend Article", options.title) } : fields;
  const article = (n) => (content ? content[n - 1] : titled(makeArticle(n, options.imageBase, options.bodyKb)));
  let contentNumbers = new Map(content?.map((item, index) => [item.slug, index + 1]));
  const hostile = new Map(makeXssArticles().map((article) => [article.slug, article.details]));
  /** @typedef {{ path: string, query: Record<string, string>, rawQuery: string, authorization: string | null, at: number }} Call */
  const state = {
    /** @type {Call[]} */
    calls: [],
    latencyMs: options.latencyMs ?? 0,
    listStatus: options.listStatus ?? 200,
    detailsStatus: options.detailsStatus ?? 200,
    /** @type {unknown} */
    listBody: options.listBody,
    /** JSON replies start with a UTF-8 byte order mark, as some servers write them. */
    bom: options.bom ?? false,
    /** @type {Map<string, string>} article bodies by slug: get_details of such a slug answers article 1's fields with this body */
    bodies: new Map(),
    /** @type {Map<string, unknown>} whole details replies by slug: a string is sent as the JSON text itself, anything else encoded */
    replies: new Map(),
  };

  /** A JSON reply, after a UTF-8 byte order mark while `state.bom` is set. */
  const reply = (res, status, body) => send(res, status, body, state.bom);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (content && content.length !== contentNumbers.size) {
      count = content.length;
      contentNumbers = new Map(content.map((item, index) => [item.slug, index + 1]));
    }
    if (url.pathname === "/__calls") return send(res, 200, state.calls);
    if (url.pathname === "/__reset") {
      state.calls = [];
      return send(res, 200, { ok: true });
    }
    state.calls.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      rawQuery: url.search,
      authorization: req.headers.authorization ?? null,
      at: Date.now(),
    });
    if (state.latencyMs) await sleep(state.latencyMs);
    if (req.headers.authorization !== `Bearer ${token}`) return reply(res, 401, { error: "unauthorized" });

    if (url.pathname === "/get_metainfo") {
      if (state.listStatus !== 200) return reply(res, state.listStatus, { error: "list failed" });
      if (state.listBody !== undefined) return reply(res, 200, state.listBody);
      const page = Number(url.searchParams.get("page") ?? "1");
      const start = (page - 1) * 10;
      const length = start >= 0 ? Math.max(0, Math.min(10, count - start)) : 0;
      const numbers = Array.from({ length }, (_, index) => start + index + 1);
      const blogs = numbers.map(article).map(({ id, slug, metaTitle, metaDescription, pinterestImageLink }) => ({
        id,
        slug,
        metaTitle,
        metaDescription,
        pinterestImageLink,
      }));
      return reply(res, 200, { blogs, total: options.total ?? count });
    }

    if (url.pathname === "/get_details") {
      const slug = url.searchParams.get("slug") ?? "";
      if (state.detailsStatus !== 200) return reply(res, state.detailsStatus, { error: "details failed" });
      switch (slug) {
        case "fault-500":
          return reply(res, 500, { error: "boom" });
        case "fault-401":
          return reply(res, 401, { error: "unauthorized" });
        case "fault-hang":
          return; // never answers; the client's timeout must end it
        case "fault-slow":
          await sleep(1500);
          return reply(res, 200, article(1));
        case "fault-not-json":
          res.writeHead(200, { "content-type": "text/html" });
          return res.end("<html><body>Gateway says hello</body></html>");
        case "fault-truncated":
          res.writeHead(200, { "content-type": "application/json" });
          return res.end('{"metaTitle": "Cut off", "blog": "abc');
        case "fault-wrong-types":
          return reply(res, 200, { metaTitle: 42, metaDescription: ["x"], date: false, blog: {} });
        case "fault-null":
          return reply(res, 200, null);
        case "fault-huge":
          return reply(res, 200, { ...article(1), blog: "x".repeat(5 * 1024 * 1024) });
      }
      if (hostile.has(slug)) return reply(res, 200, hostile.get(slug));
      if (state.replies.has(slug)) {
        const given = state.replies.get(slug);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(typeof given === "string" ? given : JSON.stringify(given));
      }
      if (state.bodies.has(slug)) {
        const { id: _id, slug: _slug, ...details } = article(1);
        return reply(res, 200, { ...details, metaTitle: `Body of ${slug}`, blog: state.bodies.get(slug) });
      }
      const n = content ? contentNumbers.get(slug) : articleNumber(slug, count);
      if (n === undefined) return reply(res, 404, { error: "Blog not found" });
      const { id: _id, slug: _slug, ...details } = article(n);
      return reply(res, 200, details);
    }
    reply(res, 404, { error: "no such function" });
  });
  const { port, url, close } = await listenOnLoopback(server, options.port ?? 0);
  return {
    url,
    port,
    state,
    calls: () => state.calls,
    reset: () => {
      state.calls = [];
    },
    close,
  };
}

function send(res, status, body, bom = false) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(`${bom ? "\uFEFF" : ""}${JSON.stringify(body)}`);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index > -1 ? Number(process.argv[index + 1]) : fallback;
  };
  const text = (name) => {
    const index = process.argv.indexOf(`--${name}`);
    return index > -1 ? process.argv[index + 1] : undefined;
  };
  const backend = await startFakeBackend({
    port: arg("port", 4101),
    latencyMs: arg("latency", 0),
    articles: arg("articles", 23),
    imageBase: text("images"),
    token: text("token"),
    title: text("title"),
  });
  console.log(`fake backend listening on ${backend.url}`);
  const stop = () => backend.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
