import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { knownShapes, pathologicalMarkdown, withinReplyCap } from "../support/hostile-markdown.mjs";
import { rssKb, startSite } from "../support/site-process.mjs";

// Article bodies of any shape and size, up to the backend reply cap, against the production build with the
// heap `npm start` gives it: each article must answer in bounded time with its title and a body, the
// process must live, /healthz must keep answering while the body is worked on, and memory must come back.
// The bounds are far from what a healthy server needs and far below what the hostile bodies cost before
// (seconds to minutes, or the process's death); exact figures come from `npm run bench:content`.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;

/** Whole answer, hostile body included. */
const ANSWER_WITHIN_MS = 10_000;
/** The longest /healthz may wait meanwhile: a blocked event loop makes it wait as long as the block. */
const HEALTHZ_WITHIN_MS = 1_000;
const SHORTENED_NOTE = "too long or too complex to show with its formatting";

let backend: Backend;
let site: Site;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  site = await startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    // Every request reaches the app; the article data stays cached as in production.
    PAGE_CACHE_SECONDS: "0",
    // The heap `npm start` runs with.
    NODE_OPTIONS: "--max-old-space-size=384",
  });
  // Warmed up on an ordinary article (the page's code compiled, a render worker started), as a running site is.
  expect((await fetch(`${site.url}/blog/backend-article-2`)).status).toBe(200);
}, 30_000);

afterAll(async () => {
  await site?.stop();
  await backend?.close();
});

let slugs = 0;

/**
 * Asks for `path` while polling /healthz every 20 ms; the answer, its time, and the longest /healthz wait.
 */
async function whileWatched(path: string, target: Site = site) {
  let longestHealthz = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const started = performance.now();
      const health = await fetch(`${target.url}/healthz`);
      await health.text();
      longestHealthz = Math.max(longestHealthz, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${target.url}${path}`);
  const text = await response.text();
  const ms = performance.now() - started;
  watching = false;
  await watcher;
  return { response, text, ms, longestHealthz };
}

/** Serves `body` as a new article, asks for its page, and checks what every such page must be. */
async function expectBoundedArticle(body: string) {
  const slug = `hostile-${++slugs}`;
  backend.state.bodies.set(slug, withinReplyCap(body));
  const { response, text, ms, longestHealthz } = await whileWatched(`/blog/${slug}`);
  backend.state.bodies.delete(slug);
  expect(site.child.exitCode, site.output().slice(-2000)).toBeNull();
  expect(ms, "answer time").toBeLessThan(ANSWER_WITHIN_MS);
  expect(longestHealthz, "longest /healthz wait").toBeLessThan(HEALTHZ_WITHIN_MS);
  if (process.env.SHOW_HEALTHZ)
    console.log(
      `${body.length} characters: answered in ${Math.round(ms)} ms, /healthz waited up to ${Math.round(longestHealthz)} ms`,
    );
  if (response.status === 503) {
    // Nothing could be shown: the site's own page, to be asked again later.
    expect(response.headers.get("retry-after")).toBeTruthy();
    return { status: 503, page: documentPart(text) };
  }
  expect(response.status).toBe(200);
  const page = documentPart(text);
  // Title, description, date and picture stay whatever became of the body.
  expect(page).toContain(
    `<h1 class="font-serif text-4xl font-semibold leading-tight tracking-tight text-ink sm:text-5xl">Body of ${slug}</h1>`,
  );
  expect(page).toContain("Description of backend article 1");
  expect(page).toMatch(/<time dateTime="2024-12-31[^"]*">December 31, 2024<\/time>/);
  expect(page).toMatch(/<figure[^>]*><picture[^>]*><source type="image\/avif"/);
  expect(page).toContain('class="article-body mt-10"');
  return { status: 200, page };
}

describe("an article body of any shape", () => {
  // The bodies that, before, froze the server for seconds to minutes, killed it, or gave a 500.
  it.each(knownShapes)(
    "%s: the article shows, the server keeps answering",
    async (_name, body) => {
      const { status, page } = await expectBoundedArticle(body);
      expect(status).toBe(200);
      // These are all too large or too complex to format whole: the reader is told.
      if (!["guillemets", "lines of a space"].includes(_name)) expect(page).toContain(SHORTENED_NOTE);
    },
    30_000,
  );

  it("is rendered once per fresh period, however often it is asked for", async () => {
    backend.state.bodies.set("hostile-again", "[a](/N) ".repeat(100_000));
    backend.reset();
    for (let index = 0; index < 5; index++) expect((await fetch(`${site.url}/blog/hostile-again`)).status).toBe(200);
    expect(backend.calls().filter((call) => call.path === "/get_details")).toHaveLength(1);
  }, 30_000);

  it("in the feed: the feed answers and the server lives", async () => {
    const entry = (slug: string) => ({
      id: slug,
      slug,
      metaTitle: `Body of ${slug}`,
      metaDescription: "x",
      pinterestImageLink: null,
    });
    backend.state.bodies.set("feed-links", "[a](/N) ".repeat(100_000));
    backend.state.bodies.set("feed-lists", `${"- ".repeat(50_000)}x`);
    backend.state.listBody = { blogs: [entry("feed-links"), entry("feed-lists")], total: 2 };
    // A site of its own, whose first list page is not cached yet.
    const feedSite = await startSite({
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      NODE_OPTIONS: "--max-old-space-size=384",
    });
    try {
      const { response, text, longestHealthz } = await whileWatched("/blog/rss.xml", feedSite);
      expect(response.status).toBe(200);
      expect(text).toContain("Body of feed-links");
      expect(text).toContain("Body of feed-lists");
      expect(longestHealthz).toBeLessThan(HEALTHZ_WITHIN_MS);
      expect(feedSite.child.exitCode).toBeNull();
    } finally {
      backend.state.listBody = undefined;
      await feedSite.stop();
    }
  }, 30_000);

  it("generated: every article answers in bounded time, the server keeps answering, memory comes back", async () => {
    const before = rssKb(site.child.pid!);
    await fc.assert(
      fc.asyncProperty(pathologicalMarkdown, async (body) => {
        await expectBoundedArticle(body);
      }),
      { numRuns: 30 },
    );
    // The rendered bodies stay in the cache (each at most a few hundred kilobytes), the workers keep what
    // their heaps grew to; the rest goes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = rssKb(site.child.pid!);
    console.log(`resident memory: ${Math.round(before / 1024)} MB before, ${Math.round(after / 1024)} MB after`);
    expect(after - before).toBeLessThan(300 * 1024);
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
  }, 180_000);
});
