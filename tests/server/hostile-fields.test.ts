import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { ARTICLE_FIELDS, hostileArticleReply, knownFieldShapes } from "../support/hostile-fields.mjs";
import { freePort, startSite } from "../support/site-process.mjs";

// Every field of an article reply, not only the body, filled by a hostile backend up to the reply cap
// (docs/decisions/041), against the production build with the heap `npm start` gives it: each article
// answers in bounded time with a page of bounded size, /healthz keeps answering meanwhile, and the event
// loop never waits long (prom-client's nodejs_eventloop_lag_max_seconds, from monitorEventLoopDelay).
// Exact figures come from `npm run bench:content`.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

/**
 * The longest an answer may take: a bound on runaway work, not a speed target (`npm run bench:content` has
 * the figures); a busy CI machine once took 10.1 s for the feed of ten hostile articles.
 */
const ANSWER_WITHIN_MS = 30_000;
const HEALTHZ_WITHIN_MS = 1_000;
/** The largest article page, whatever the backend sends. */
const PAGE_MAX_BYTES = 1024 * 1024;
/**
 * The longest the event loop may wait on one article's work here: a stall, as before decisions 029 and 041
 * (pauses of 169–516 ms, /healthz held for seconds). The 100 ms target is `npm run bench:content`'s, on a
 * quiet machine; idle, the costliest shape here pauses 50–100 ms, which a busy one stretches (decision 064).
 */
const LONGEST_PAUSE_MS = 200;
/**
 * The times are measured again, on a new article with the same reply, up to this many times: a pause the
 * site's own work causes comes back every time, one that the machine's other work causes (two cores, other
 * test files running) does not.
 */
const PAUSE_TRIES = 4;
/** The bounds of app/blog/field-bounds.ts, as a reader meets them. */
const TITLE_MAX = 200;
const DESCRIPTION_MAX = 500;
const KEYWORDS_MAX = 40;

let backend: Backend;
let site: Site;
let metricsPort: number;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  metricsPort = await freePort();
  site = await startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    METRICS_PORT: String(metricsPort),
    // Every request reaches the app; the article data stays cached as in production.
    PAGE_CACHE_SECONDS: "0",
    NODE_OPTIONS: "--max-old-space-size=384",
  });
  // Warmed up as a running site is: the pages' code compiled, a render worker started, the catalogue open.
  for (const path of ["/", "/blog", "/blog/backend-article-1", "/blog/backend-article-2", "/search?q=zen"]) {
    expect((await fetch(`${site.url}${path}`)).status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await backend?.close();
});

/** The longest event-loop delay since the last call (reading the metrics resets it). */
async function longestPauseMs() {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
}

/**
 * Asks for `path` while polling /healthz every 20 ms: the answer, its time, its size, the longest /healthz
 * wait and, on the main site (whose metrics are read), the longest event-loop pause.
 */
async function watched(path: string, target: Site = site) {
  let longestHealthz = 0;
  let watching = true;
  const watchPause = target === site;
  if (watchPause) await longestPauseMs();
  const watcher = (async () => {
    while (watching) {
      const started = performance.now();
      await (await fetch(`${target.url}/healthz`)).text();
      longestHealthz = Math.max(longestHealthz, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${target.url}${path}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  watching = false;
  await watcher;
  return {
    status: response.status,
    text: bytes.toString("utf8"),
    bytes: bytes.length,
    ms,
    longestHealthz,
    pause: watchPause ? await longestPauseMs() : NaN,
  };
}

let slugs = 0;

/** Whether an answer kept the time bounds: its own time, the longest /healthz wait and the longest pause. */
function timeProblems(answer: Awaited<ReturnType<typeof watched>>) {
  const problems: string[] = [];
  if (answer.ms >= ANSWER_WITHIN_MS) problems.push(`answered in ${Math.round(answer.ms)} ms`);
  if (answer.longestHealthz >= HEALTHZ_WITHIN_MS)
    problems.push(`/healthz waited ${Math.round(answer.longestHealthz)} ms`);
  if (!(answer.pause < LONGEST_PAUSE_MS)) problems.push(`the event loop paused ${Math.round(answer.pause)} ms`);
  return problems;
}

/**
 * Serves `reply` as a new article, asks for its page, and checks what every such page must be. The status
 * and the size must hold every time; the times must hold on one try of up to PAUSE_TRIES, since a busy
 * machine (two cores, browsers beside) delays a try now and then, while a stall the site causes comes back
 * on every try.
 */
async function expectBoundedArticle(reply: string, description: string) {
  const tries: string[] = [];
  let first: Awaited<ReturnType<typeof watched>> | undefined;
  for (let attempt = 0; attempt < PAUSE_TRIES; attempt += 1) {
    const slug = `fields-${++slugs}`;
    backend.state.replies.set(slug, reply);
    const answer = await watched(`/blog/${slug}`);
    backend.state.replies.delete(slug);
    const context = `${description}: ${answer.status} in ${Math.round(answer.ms)} ms, ${answer.bytes} bytes`;
    expect(site.child.exitCode, site.output().slice(-2000)).toBeNull();
    expect([200, 503], context).toContain(answer.status);
    expect(answer.bytes, `${context}: page size`).toBeLessThan(PAGE_MAX_BYTES);
    first ??= answer;
    const problems = timeProblems(answer);
    if (problems.length === 0) return first;
    tries.push(problems.join(", "));
  }
  expect.fail(`${description}: no try kept the time bounds (${tries.join("; ")})`);
}

/** The page's shown title, description and keyword chips, as a reader meets them. */
function shownFields(html: string) {
  const page = documentPart(html);
  const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(page)?.[1] ?? "";
  const meta = /<meta name="description" content="([^"]*)"/.exec(page)?.[1] ?? "";
  const chips = page.match(/href="\/keywords\//g)?.length ?? 0;
  return { title: decode(title), description: decode(meta), chips };
}

function decode(text: string) {
  return text.replace(
    /&(amp|lt|gt|quot|#x27|#39);/g,
    (entity) => ({ "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" })[entity]!,
  );
}

describe("an article reply with any field of any size", () => {
  it.each(knownFieldShapes())(
    "%s: a bounded page, the server keeps answering",
    async (name, reply) => {
      const answer = await expectBoundedArticle(reply, name);
      // Replies nested too deep or of too many values are refused unparsed; every other one shows, its fields cut.
      const refused = /nested|empty objects/.test(name);
      expect(answer.status).toBe(refused ? 503 : 200);
      if (refused) return;
      const shown = shownFields(answer.text);
      expect([...shown.title].length).toBeLessThanOrEqual(TITLE_MAX);
      expect([...shown.description].length).toBeLessThanOrEqual(DESCRIPTION_MAX);
      expect(shown.chips).toBeLessThanOrEqual(KEYWORDS_MAX);
    },
    60_000,
  );

  it("shows a cut title with an ellipsis, a bounded description and at most 20 keywords a group", async () => {
    const [, reply] = knownFieldShapes()[0]!;
    const { text } = await expectBoundedArticle(reply, "the issue's article");
    const shown = shownFields(text);
    expect(shown.title).toMatch(/^T{150,199}…$/);
    expect(shown.chips).toBe(KEYWORDS_MAX);
    // The same bounded title everywhere a reader or a crawler meets it.
    const page = documentPart(text);
    expect(page).toContain(`<title>${shown.title}`);
    expect(page).toContain(`"headline":"${shown.title}"`);
    expect(page).not.toContain("T".repeat(TITLE_MAX));
  }, 60_000);

  it("asks the backend once a fresh period for an article whose reply is refused, however often it is asked for", async () => {
    const [, nested] = knownFieldShapes().find(([name]) => /nested/.test(name))!;
    backend.state.replies.set("refused-again", nested);
    backend.reset();
    for (let index = 0; index < 5; index += 1) expect((await fetch(`${site.url}/blog/refused-again`)).status).toBe(503);
    expect(backend.calls().filter((call) => call.path === "/get_details")).toHaveLength(1);
    backend.state.replies.delete("refused-again");
  }, 30_000);

  it.each([...ARTICLE_FIELDS, "all"])(
    "generated, %s hostile: every page bounded, the server keeps answering",
    async (field) => {
      await fc.assert(
        fc.asyncProperty(hostileArticleReply(field), async ({ text, description }) => {
          await expectBoundedArticle(text, description);
        }),
        { numRuns: field === "all" ? 10 : 4 },
      );
    },
    300_000,
  );
});

describe("pages of many articles whose fields are hostile", () => {
  const replies = knownFieldShapes().filter(([name]) => !/nested|empty objects/.test(name));
  /** A site of its own, whose caches have not seen the ordinary list. */
  let listSite: Site;

  beforeAll(async () => {
    // Ten articles, each with a huge title, description and id in the list (the list reply within the cap) and a hostile reply.
    const blogs = replies
      .concat(replies)
      .slice(0, 10)
      .map(([, reply], index) => {
        const slug = `listed-${index}`;
        backend.state.replies.set(slug, reply);
        return {
          id: "9".repeat(10_000),
          slug,
          metaTitle: `${"Title ".repeat(10_000)}${index}`,
          metaDescription: "<d>".repeat(25_000),
          pinterestImageLink: null,
        };
      });
    backend.state.listBody = { blogs, total: blogs.length };
    listSite = await startSite({
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      PAGE_CACHE_SECONDS: "0",
      NODE_OPTIONS: "--max-old-space-size=384",
    });
  }, 60_000);

  afterAll(async () => {
    await listSite?.stop();
    backend.state.listBody = undefined;
    for (let index = 0; index < 10; index += 1) backend.state.replies.delete(`listed-${index}`);
  });

  it.each(["/blog", "/blog/rss.xml", "/sitemap.xml", "/sitemap-articles.xml?part=1", "/blog/listed-0"])(
    "%s answers in bounded time and size, the server keeps answering",
    async (path) => {
      const answer = await watched(path, listSite);
      expect(answer.status, path).toBe(200);
      expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(answer.longestHealthz).toBeLessThan(HEALTHZ_WITHIN_MS);
      expect(answer.bytes).toBeLessThan(PAGE_MAX_BYTES);
      // The list's titles, cut; the articles' own (the feed reads them), cut too. A sitemap lists addresses.
      expect(answer.text).toContain(path.startsWith("/sitemap") ? "sitemap" : "Title Title");
      if (path.startsWith("/sitemap-articles")) expect(answer.text).toContain("/blog/listed-9</loc>");
      expect(answer.text).not.toContain("Title ".repeat(TITLE_MAX / 6 + 1));
      expect(answer.text).not.toContain("T".repeat(TITLE_MAX));
    },
    60_000,
  );

  it("search and keyword pages find the stored article by its bounded keywords", async () => {
    // The article page stores what it fetched in the catalogue on the way, after its answer.
    expect((await fetch(`${listSite.url}/blog/listed-0`)).status).toBe(200);
    let keywordPage: Awaited<ReturnType<typeof watched>> | undefined;
    for (
      const deadline = Date.now() + 10_000;
      Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 200))
    ) {
      keywordPage = await watched("/keywords/k1", listSite);
      if (keywordPage.status === 200) break;
    }
    expect(keywordPage!.status).toBe(200);
    expect(keywordPage!.text).toContain('href="/blog/listed-0"');
    expect(keywordPage!.bytes).toBeLessThan(PAGE_MAX_BYTES);
    expect(keywordPage!.longestHealthz).toBeLessThan(HEALTHZ_WITHIN_MS);
    const search = await watched("/search?q=k1", listSite);
    expect(search.status).toBe(200);
    expect(search.text).toContain('href="/blog/listed-0"');
    expect(search.text).not.toContain("T".repeat(TITLE_MAX));
    expect(search.bytes).toBeLessThan(PAGE_MAX_BYTES);
  }, 30_000);
});
