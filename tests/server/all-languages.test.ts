import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFrontMatter } from "~/blog/front-matter";
import { markdownWords, readingMinutes } from "~/blog/reading-time";
import { resolveLanguage, siteLanguage, translationTags } from "~/i18n/translations.server";
import { zawgyiProbability, ZAWGYI_PROBABILITY } from "~/i18n/zawgyi.server";
import { MARKS, type Tradition } from "~/site/traditions";
import { startSite } from "../support/site-process.mjs";

// The sites example (docs/sites-all-languages.yaml): seventeen sites, one a language, from one process,
// none naming CONTENT_DIR. Each answers in its language with the embedded articles of its language
// (content/<language>, English's content/blog: docs/decisions/049) and no other's, and an article shows
// its text as written (the Burmese one is Unicode, and is not converted), with its reading time counted
// for its script, in the language.

type Site = {
  hosts: string[];
  SITE_LANGUAGE: string;
  SITE_PRODUCT: string;
  SITE_NAME?: string;
  SITE_TRADITION?: Tradition;
};
type Article = { slug: string; title: string; description: string; body: string };

const EXAMPLE = "docs/sites-all-languages.yaml";
const sites = (parse(readFileSync(EXAMPLE, "utf8")) as { sites: Site[] }).sites;

const folderOf = (translations: string) => (translations === "en" ? "content/blog" : `content/${translations}`);

function articlesIn(folder: string): Article[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .map((name) => {
      const { data, content } = parseFrontMatter(readFileSync(path.join(folder, name), "utf8"));
      return {
        slug: name.slice(0, -3),
        title: String(data.metaTitle),
        description: String(data.metaDescription),
        body: content.trim(),
      };
    });
}

const languages = sites.map((site) => {
  const resolved = resolveLanguage(site.SITE_LANGUAGE);
  if (!resolved.ok) throw new Error(resolved.problem);
  const tradition = site.SITE_TRADITION ?? "zen";
  const siteName = site.SITE_NAME ?? `${site.SITE_PRODUCT} Buddhism`;
  return {
    site,
    host: site.hosts[0]!,
    tradition,
    siteName,
    zen: siteLanguage(resolved),
    language: siteLanguage(resolved, tradition, siteName),
    articles: articlesIn(folderOf(resolved.translations)),
  };
});

const decode = (text: string) =>
  text
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

let server: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  server = await startSite({ SITES_FILE: EXAMPLE });
}, 60_000);

afterAll(() => server?.stop());

/** A page of the site of `host` (fetch cannot name a host other than the address's). */
async function page(host: string, urlPath: string): Promise<string> {
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(
        { host: "127.0.0.1", port: server.port, path: urlPath, headers: { Host: host }, agent: false },
        (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      )
      .on("error", reject);
  });
  expect(status, `${host}${urlPath}`).toBe(200);
  return decode(body);
}

describe("the seventeen languages of the sites example, from one process", () => {
  it("covers every language's translations, each with articles of its own", () => {
    const tags = translationTags();
    expect(
      languages
        .map(({ language }) => resolveLanguage(language.lang))
        .map((resolved) => resolved.ok && resolved.translations)
        .sort(),
    ).toEqual(tags.sort());
    for (const { host, articles } of languages) expect(articles.length, host).toBeGreaterThan(0);
  });

  it("each site answers in its language, with its own articles and no other language's", async () => {
    const slugsOfOthers = (host: string) =>
      languages
        .filter((other) => other.host !== host)
        .flatMap((other) => other.articles.map((article) => article.slug));
    for (const { site, host, language, articles } of languages) {
      const home = await page(host, "/");
      expect(home, host).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${language.lang}" dir="ltr"[ >]`));
      expect(home, host).toContain(
        `<title>${site.SITE_NAME ?? `${site.SITE_PRODUCT} Buddhism`} · ${language.translator.t("hero.title", { product: site.SITE_PRODUCT })}</title>`,
      );
      const list = await page(host, "/blog");
      const listed = [...list.matchAll(/href="\/blog\/([a-z0-9-]+)"/g)].map((match) => match[1]!);
      expect(new Set(listed).size, host).toBe(Math.min(articles.length, 10));
      expect(
        listed.filter((slug) => !articles.some((article) => article.slug === slug)),
        host,
      ).toEqual([]);
      expect(
        listed.filter((slug) => slugsOfOthers(host).includes(slug)),
        host,
      ).toEqual([]);
    }
  }, 60_000);

  it("each home page speaks for its own tradition, in its language, with its mark, and never of Zen's practice", async () => {
    const pillarsAndAbout = [
      "about.paragraph1",
      "about.paragraph2",
      "about.pillar1.title",
      "about.pillar2.title",
      "about.pillar3.title",
      "hero.subtitle",
    ] as const;
    const traditions = new Set<string>();
    for (const { site, host, tradition, siteName, zen, language } of languages) {
      traditions.add(tradition);
      const home = await page(host, "/");
      for (const key of pillarsAndAbout)
        expect(home, `${host}: ${key}`).toContain(language.translator.t(key, { product: site.SITE_PRODUCT }));
      expect(home, host).toContain(`<path d="${MARKS[tradition].path}"`);
      expect(home, host).toContain(`content="${language.translator.t("meta.shareImageAlt", { site: siteName })}"`);
      if (tradition === "zen") continue;
      // Zen's pillars in this language (zazen, kōans) and its mark appear nowhere on the page.
      for (const key of ["about.pillar1.title", "about.pillar2.title"] as const)
        expect(home, `${host}: Zen's ${key}`).not.toContain(zen.translator.t(key));
      expect(home, host).not.toContain(MARKS.zen.path);
    }
    expect([...traditions].sort()).toEqual(["pure-land", "theravada", "tibetan", "zen"]);
    // Tibetan and Dzongkha keep the tsheg of the name's last ང before the shad.
    for (const host of ["bo.localhost", "dz.localhost"]) {
      const footer = (await page(host, "/")).split("<footer")[1]!;
      expect(footer, host).toMatch(/ང་།/u);
      expect(footer, host).not.toMatch(/ང།/u);
    }
  }, 60_000);

  it("an article shows its text as written, and its reading time counted for its script, in the language", async () => {
    for (const { host, language, articles } of languages) {
      const article = articles[0]!;
      const html = await page(host, `/blog/${article.slug}`);
      const text = html.replace(/<[^>]+>/g, "");
      expect(html.includes(`${article.title}</h1>`), `${host}: the title`).toBe(true);
      // The first sentence of the body, character for character (its emphasis aside): no conversion, no lost joiner.
      const sentence = article.body
        .split("\n")[0]!
        .split(/(?<=[。।။។.])/u)[0]!
        .replace(/\*/g, "");
      expect(text.includes(sentence), `${host}: "${sentence}"`).toBe(true);
      const minutes = language.translator.plural("article.readingTime", readingMinutes(article.body));
      expect(html.includes(`<span>${minutes}</span>`), `${host}: "${minutes}"`).toBe(true);
    }
    // The articles of the nine languages of decision 44 are 100 to 250 words long: counted by spaces alone,
    // the Chinese, Khmer, Lao, Tibetan and Dzongkha ones would have fewer than 50.
    for (const { host, articles } of languages.filter(({ language }) =>
      ["zh-Hans", "my", "si", "km", "lo", "bo", "dz", "mn", "ne"].includes(language.lang),
    )) {
      expect(markdownWords(articles[0]!.body), host).toBeGreaterThanOrEqual(90);
    }
  }, 60_000);

  it("the Burmese article is Unicode: the Zawgyi detector finds no Zawgyi in it", () => {
    const burmese = languages.find(({ language }) => language.lang === "my")!.articles;
    for (const { title, description, body } of burmese) {
      for (const text of [title, description, body]) expect(zawgyiProbability(text)).toBeLessThan(ZAWGYI_PROBABILITY);
    }
  });
});
