// Hostile article content through the real site and a real browser: the fake backend serves
// articles made of the XSS corpus (tests/support/xss-payloads.mjs), and nothing in them may run or
// leave anything in the page that could run later (a handler, a javascript: link, a frame).
import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import { makeXssArticles } from "../support/fake-backend.mjs";
import { xssPayloads } from "../support/xss-payloads.mjs";
import { hydrated } from "./blog-helpers";
import { expect, hasJavaScript, test, urls } from "./fixtures";

const hostile = makeXssArticles();
const corpusArticles = hostile.filter((article) => article.payloads.length > 0);
const fieldsArticle = hostile.find((article) => article.slug === "xss-fields")!;

const articleBody = (page: Page) => page.locator("main .article-body");
// The article's own title: the payloads bring headings of their own, h1 included.
const articleTitle = (page: Page) => page.locator("main article > header h1");

type Traps = { __xssCalls?: string[]; __cspViolations?: string[] };
type RemixWindow = { __remixRouter?: { navigate(to: string): Promise<void> } };

/**
 * Runs before any script of the page (and of its frames): alert, confirm, prompt, print and the
 * payloads' __xss only record that they were called, and CSP violations are noted. A violation means
 * markup got through that only the policy stopped.
 */
function installTraps() {
  const own = window as unknown as Traps;
  own.__xssCalls = [];
  own.__cspViolations = [];
  // A call from a same-origin frame counts as a call in the page.
  const sink = () => {
    try {
      return (window.top as unknown as Traps).__xssCalls ?? own.__xssCalls!;
    } catch {
      return own.__xssCalls!;
    }
  };
  const trap =
    (name: string) =>
    (...args: unknown[]) => {
      sink().push(`${name}(${args.map(String).join(", ")})`);
      return name === "confirm" ? false : null;
    };
  for (const name of ["alert", "confirm", "prompt", "print", "__xss"]) {
    Object.defineProperty(window, name, { value: trap(name), writable: false, configurable: false });
  }
  document.addEventListener("securitypolicyviolation", (event) => {
    own.__cspViolations!.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`);
  });
}

/** Dialogs that opened anyway (from a frame the traps did not reach, say); each is dismissed. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  return opened;
}

/**
 * Everything in the document a payload could use to run code, described; empty when the page is safe.
 * Handlers and dangerous URLs anywhere in the document (a payload could escape the body), active
 * elements inside the article body.
 */
function findActiveMarkup(): string[] {
  const urlAttributes = ["href", "src", "action", "formaction", "xlink:href", "data", "srcset", "poster"];
  const dangerousScheme = /^(javascript|data|vbscript):/;
  const describe = (element: Element) => `<${element.tagName.toLowerCase()}>`;
  const found: string[] = [];
  for (const element of document.querySelectorAll("*")) {
    for (const { name, value } of element.attributes) {
      const attribute = name.toLowerCase();
      if (attribute.startsWith("on")) found.push(`${describe(element)} has ${attribute}="${value}"`);
      if (!urlAttributes.includes(attribute)) continue;
      // As the URL parser sees it: outer spaces and controls dropped, tabs and newlines removed.
      const raw = value
        .replace(/^[\s\p{Cc}]+|[\s\p{Cc}]+$/gu, "")
        .replace(/[\t\n\r]/g, "")
        .toLowerCase();
      let resolved = "";
      try {
        resolved = new URL(value, document.baseURI).protocol;
      } catch {
        // Not a URL at all: nothing to follow.
      }
      if (dangerousScheme.test(raw) || dangerousScheme.test(resolved)) {
        found.push(`${describe(element)} has ${attribute}="${value}"`);
      }
    }
  }
  const body = document.querySelector("main .article-body");
  const active = "script, iframe, frame, frameset, object, embed, applet, style, link, meta, base, form";
  for (const element of body?.querySelectorAll(active) ?? []) found.push(`${describe(element)} in the article body`);
  return found;
}

async function expectInert(page: Page, dialogs: string[], label: string) {
  if (hasJavaScript(page)) await hydrated(page);
  expect(await page.evaluate(findActiveMarkup), `${label}: active markup in the page`).toEqual([]);
  const traps = await page.evaluate(() => {
    const own = window as unknown as Traps;
    return { calls: own.__xssCalls ?? null, violations: own.__cspViolations ?? null };
  });
  if (hasJavaScript(page)) {
    // Only meaningful when the traps were really in place.
    expect(traps.calls, `${label}: traps installed`).not.toBeNull();
    expect(traps.calls, `${label}: payload code that ran`).toEqual([]);
    expect(traps.violations, `${label}: markup only the CSP stopped`).toEqual([]);
  }
  expect(dialogs, `${label}: dialogs`).toEqual([]);
}

// Width changes nothing here; with and without JavaScript both matter.
test.describe("hostile article content", { tag: "@desktop" }, () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(installTraps);
  });

  test("the corpus is big enough to mean something", async () => {
    expect(xssPayloads.length).toBeGreaterThanOrEqual(100);
    expect(corpusArticles.flatMap((article) => article.payloads)).toEqual(xssPayloads);
  });

  test("the checks notice hostile markup that gets through", async ({ page }) => {
    // The same checks, on an article whose served body has unsafe markup added on the way.
    const url = `${urls.configured}/blog/${corpusArticles[0]!.slug}`;
    await page.route(url, async (route) => {
      const response = await route.fetch();
      // A script the policy allows, so the trap is seen to record code that runs.
      const allowed = "__xss('allowed script')";
      const leaked =
        `<img src="/no-such-image.png" alt="" onerror="__xss('handler')">` +
        `<a href=" JaVa&#x09;Script:__xss('link')">link</a>` +
        `<iframe src="about:blank"></iframe><style>p{}</style>` +
        `<script>${allowed}</script>`;
      const html = (await response.text()).replace(/<div class="article-body[^"]*">/, `$&${leaked}`);
      const headers = { ...response.headers() };
      // The body is handed over decoded.
      for (const name of ["content-encoding", "content-length", "transfer-encoding"]) delete headers[name];
      const hash = createHash("sha256").update(allowed).digest("base64");
      headers["content-security-policy"] = headers["content-security-policy"]!.replace(
        "script-src ",
        `script-src 'sha256-${hash}' `,
      );
      await route.fulfill({ status: response.status(), headers, body: html });
    });
    await page.goto(url);
    if (hasJavaScript(page)) await hydrated(page);

    const found = await page.evaluate(findActiveMarkup);
    expect(found).toEqual(
      expect.arrayContaining([
        `<img> has onerror="__xss('handler')"`,
        `<a> has href=" JaVa\tScript:__xss('link')"`,
        "<iframe> in the article body",
        "<style> in the article body",
        "<script> in the article body",
      ]),
    );
    if (hasJavaScript(page)) {
      const calls = await page.evaluate(() => (window as unknown as Traps).__xssCalls);
      expect(calls, "the trap records code that runs").toEqual(["__xss(allowed script)"]);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as Traps).__cspViolations))
        .toContainEqual(expect.stringMatching(/^script-src-attr/));
    }
  });

  for (const article of corpusArticles) {
    const first = xssPayloads.indexOf(article.payloads[0]!);
    test(`${article.slug}: payloads ${first}–${first + article.payloads.length - 1} stay inert text`, async ({
      page,
    }) => {
      const dialogs = watchDialogs(page);
      const response = await page.goto(`${urls.configured}/blog/${article.slug}`);
      expect(response?.status()).toBe(200);
      await expect(articleTitle(page)).toHaveText(article.details.metaTitle);
      // Every payload reached the page, each in its own list item, then all at the top level.
      const sections = articleBody(page).locator(":scope > h2");
      await expect(sections).toHaveText(["Each payload on its own", "The payloads one after another"]);
      await expect(articleBody(page).locator(":scope > h2 + ul > li")).toHaveCount(article.payloads.length);
      await expectInert(page, dialogs, article.slug);
    });
  }

  test("hostile title, description, date, links and keywords stay text", async ({ page }) => {
    const dialogs = watchDialogs(page);
    const fields = fieldsArticle.details;
    const response = await page.goto(`${urls.configured}/blog/${fieldsArticle.slug}`);
    expect(response?.status()).toBe(200);
    const main = page.getByRole("main");
    await expect(articleTitle(page)).toHaveText(fields.metaTitle);
    await expect(page).toHaveTitle(fields.metaTitle);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", fields.metaDescription);
    // The JSON-LD blocks still parse: a </script> in the title did not end them early.
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.length).toBeGreaterThan(0);
    const headlines = jsonLd.map((text) => (JSON.parse(text) as { headline?: string }).headline).filter(Boolean);
    expect(headlines).toEqual([fields.metaTitle]);
    // javascript: links for the image and the video are dropped, not shown.
    await expect(main.getByRole("link", { name: "View on Pinterest" })).toHaveCount(0);
    await expect(main.locator("iframe")).toHaveCount(0);
    await expect(main).toContainText('<img src=x onerror=__xss("keyword")>');
    await expectInert(page, dialogs, fieldsArticle.slug);
  });

  test(
    "articles rendered by the browser on client-side navigation stay inert too",
    { tag: "@js" },
    async ({ page }) => {
      const dialogs = watchDialogs(page);
      await page.goto(`${urls.configured}/blog/${corpusArticles[0]!.slug}`);
      await hydrated(page);
      for (const article of [...corpusArticles.slice(1), fieldsArticle]) {
        // Remix's router, as a <Link> click would use it; the body then arrives as data and is set as HTML.
        await page.evaluate((path) => {
          const router = (window as unknown as RemixWindow).__remixRouter;
          if (!router) throw new Error("Remix router not found on window");
          return router.navigate(path);
        }, `/blog/${article.slug}`);
        await expect(page).toHaveURL(`${urls.configured}/blog/${article.slug}`);
        await expect(articleTitle(page)).toHaveText(article.details.metaTitle);
        await expectInert(page, dialogs, `${article.slug} after navigation`);
      }
    },
  );
});
