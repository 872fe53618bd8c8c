import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../support/chromium.mjs";
import { documentPart } from "../support/document.mjs";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { configuredSite, languageSites, VIETNAMESE_SITE_NAME, vietnameseContentDir } from "../support/servers.mjs";
import { startSite } from "../support/site-process.mjs";

// The W3C Nu HTML Checker (vnu-jar), as it comes, over the pages a reader and a crawler get: the document
// as served (JavaScript off; up to </html>, see decision 018) and the DOM after hydration in Chromium
// (JavaScript on), for the embedded articles, for a hosted blog with every third-party setting, and for a
// Vietnamese and a Japanese site in their languages (text where nearly every word has a multi-byte letter:
// "Saw U+0000 in stream" before decision 023). One run of the checker for all documents: the JVM is slow to start.

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
type Site = Awaited<ReturnType<typeof startSite>>;
type Message = { type: string; subType?: string; url?: string; lastLine?: number; message: string; extract?: string };

const japanese = languageSites.find((site) => site.lang === "ja")!;
const VNU_JAR = "node_modules/vnu-jar/build/dist/vnu.jar";
/**
 * A larger thread stack, as the checker's documentation advises: its schema evaluation recurses deeply. Only
 * the JVM's first compiler: one short run never repays the optimising one, which took half its time here.
 */
const JVM_OPTIONS = ["-Xss4m", "-XX:TieredStopAtLevel=1"];
const PAGES = {
  embedded: ["/", "/blog", "/blog?page=2", "/blog/how-to-start-zazen-at-home", "/blog/beginners-mind", "/no/such/page"],
  hosted: ["/", "/blog", "/blog?page=2", "/blog/backend-article-1", "/blog/backend-article-4", "/no/such/page"],
  vietnamese: ["/", "/blog", "/blog/niem-phat-moi-ngay"],
  japanese: ["/", "/blog", `/blog/${japanese.article}`, "/no/such/page"],
};

const scratch = mkdtempSync(path.join(tmpdir(), "nu-check-"));
let backend: Backend;
let sites: Record<keyof typeof PAGES, Site>;
let browser: Browser;
/** Checked file → what it is, for the failure messages. */
const documents = new Map<string, string>();
let messages: Message[] = [];

function keep(label: string, html: string) {
  const file = path.join(scratch, `${documents.size + 1}.html`);
  writeFileSync(file, html);
  documents.set(`file:${file}`, label);
}

async function hydratedDom(url: string): Promise<string> {
  const page = await browser.newPage();
  try {
    // Nothing leaves the machine: third-party embeds and scripts are refused.
    await page.route(
      (target) => !/^https?:\/\/127\.0\.0\.1(:\d+)?\//.test(target.href),
      (route) => route.abort("blockedbyclient"),
    );
    await page.goto(url);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    return `<!DOCTYPE html>\n${await page.evaluate(() => document.documentElement.outerHTML)}`;
  } finally {
    await page.close();
  }
}

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
  const [embedded, hosted, vietnamese, japaneseSite] = await Promise.all([
    startSite({}),
    startSite({ ...configuredSite, BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN }),
    startSite({
      SITE_NAME: VIETNAMESE_SITE_NAME,
      SITE_PRODUCT: "Tịnh Độ",
      SITE_LANGUAGE: "vi",
      CONTENT_DIR: vietnameseContentDir,
    }),
    startSite({
      SITE_NAME: japanese.name,
      SITE_PRODUCT: japanese.product,
      SITE_LANGUAGE: "ja",
      CONTENT_DIR: japanese.contentDir,
    }),
  ]);
  sites = { embedded, hosted, vietnamese, japanese: japaneseSite };
  browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu"] });
  for (const [name, paths] of Object.entries(PAGES) as [keyof typeof PAGES, string[]][]) {
    for (const pagePath of paths) {
      const url = sites[name].url + pagePath;
      keep(`${name} ${pagePath}, as served`, documentPart(await (await fetch(url)).text()));
      keep(`${name} ${pagePath}, after hydration`, await hydratedDom(url));
    }
  }
  let output: string;
  try {
    output = execFileSync(
      "java",
      [
        ...JVM_OPTIONS,
        "-jar",
        VNU_JAR,
        "--format",
        "json",
        "--stdout",
        ...[...documents.keys()].map((url) => url.slice(5)),
      ],
      {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    // vnu exits 1 when it found errors; its report is still on stdout.
    output = String((error as { stdout?: string }).stdout ?? "");
    if (!output) throw error;
  }
  messages = (JSON.parse(output) as { messages: Message[] }).messages;
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(sites ?? {}).map((site) => site.stop()));
  await backend?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the Nu HTML Checker", () => {
  it("checked every page, with JavaScript off and on", () => {
    expect(documents.size).toBe(2 * Object.values(PAGES).flat().length);
  });

  // A document vnu could not read would be a non-document error: counted as an error here.
  it("finds no error in any of them", () => {
    const errors = messages
      .filter((message) => message.type === "error" || message.type === "non-document-error")
      .map(
        (message) =>
          `${documents.get(message.url ?? "") ?? message.url}, line ${message.lastLine}: ${message.message} (${message.extract?.trim().slice(0, 120)})`,
      );
    expect(errors).toEqual([]);
  });
});
