import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import english from "../../../locales/en.json";
import { aboutHtml, ABOUT_MAX_BYTES } from "~/blog/about-text.server";
import { forTradition, siteLanguage } from "~/i18n/translations.server";
import type { Translations } from "~/i18n/messages";
import { joinSentences } from "~/i18n/sentences";
import { joinNamesWithShad, shadProblems, withShad } from "~/i18n/tibetan-joins";
import { aboutSourceOf } from "~/site/about-file";
import { parseSettings, publicSettings } from "~/site/config.server";
import { MARKS, TRADITIONS } from "~/site/traditions";

const translations = english as Translations;
/** The keys a tradition gives its own words for: those of Zen's texts that the home page shows. */
const traditionKeys = (tradition: string) =>
  Object.keys(translations)
    .filter((key) => key.startsWith(`tradition.${tradition}.`))
    .map((key) => key.slice(`tradition.${tradition}.`.length));

describe("a site's tradition", () => {
  it("is zen unless SITE_TRADITION says otherwise, and one of the five", () => {
    const zen = parseSettings({});
    expect(zen.ok && zen.settings.site.tradition).toBe("zen");
    for (const tradition of TRADITIONS) {
      const set = parseSettings({ SITE_TRADITION: tradition });
      expect(set.ok && set.settings.site.tradition).toBe(tradition);
    }
    const wrong = parseSettings({ SITE_TRADITION: "mahayana" });
    expect(wrong.ok ? "" : wrong.problems.join("\n")).toMatch(
      /SITE_TRADITION must be one of zen, theravada, tibetan, pure-land, general/,
    );
  });

  it("gives every tradition but Zen the same keys, each in place of a key of Zen's", () => {
    const zen = traditionKeys("zen");
    expect(zen).toEqual([]);
    const theravada = traditionKeys("theravada");
    expect(theravada.length).toBeGreaterThanOrEqual(13);
    for (const tradition of TRADITIONS.filter((name) => name !== "zen")) {
      expect(traditionKeys(tradition), tradition).toEqual(theravada);
      for (const key of traditionKeys(tradition)) expect(key in translations, `${tradition}: ${key}`).toBe(true);
    }
  });

  it("reads its own words in place of Zen's, keeps the translations' order, and sends no other tradition's", () => {
    const zen = forTradition(translations, "zen");
    expect(Object.keys(zen).some((key) => key.startsWith("tradition."))).toBe(false);
    expect(zen["about.pillar1.title"]).toBe("Zazen");
    for (const tradition of TRADITIONS.filter((name) => name !== "zen")) {
      const own = forTradition(translations, tradition);
      expect(Object.keys(own), tradition).toEqual(Object.keys(zen));
      for (const key of traditionKeys(tradition)) expect(own[key]).toBe(translations[`tradition.${tradition}.${key}`]);
    }
  });

  it("never speaks of Zen's practice on another tradition's home page, in English", () => {
    const zenPractice = /zazen|kōan|koan|ensō|enso\b|beginner’s mind/i;
    for (const tradition of TRADITIONS.filter((name) => name !== "zen")) {
      const own = forTradition(translations, tradition);
      for (const key of traditionKeys(tradition)) {
        expect(String(own[key]), `${tradition}: ${key}`).not.toMatch(zenPractice);
        // A site for every tradition names Zen among them; the others do not name it at all.
        if (tradition !== "general") expect(String(own[key]), `${tradition}: ${key}`).not.toMatch(/\bZen\b/);
      }
    }
    // Theravāda is not a school of the Mahāyāna.
    expect(String(forTradition(translations, "theravada")["about.paragraph1"])).not.toMatch(/Mahāyāna/);
  });

  it("brings its mark to the page and its encyclopedia article, unless the operator names one", () => {
    const site = (env: Record<string, string>) => {
      const result = parseSettings(env);
      if (!result.ok) throw new Error(result.problems.join("\n"));
      return result.settings.site;
    };
    expect(publicSettings(site({})).mark).toBe(MARKS.zen);
    expect(publicSettings(site({ SITE_TRADITION: "theravada" })).mark).toBe(MARKS.theravada);
    expect(MARKS.theravada).not.toBe(MARKS.zen);
    expect(MARKS.tibetan).not.toBe(MARKS.theravada);
    expect(site({ SITE_PRODUCT: "Rinzai Zen" }).encyclopediaUrl).toBe("https://en.wikipedia.org/wiki/Rinzai_Zen");
    expect(site({ SITE_TRADITION: "theravada", SITE_PRODUCT: "ထေရဝါဒ" }).encyclopediaUrl).toBe(
      "https://en.wikipedia.org/wiki/Theravada",
    );
    expect(site({ SITE_TRADITION: "tibetan" }).encyclopediaUrl).toBe("https://en.wikipedia.org/wiki/Tibetan_Buddhism");
    expect(site({ SITE_TRADITION: "pure-land", ENCYCLOPEDIA_URL: "https://example.org/jodo" }).encyclopediaUrl).toBe(
      "https://example.org/jodo",
    );
  });

  it("is in every site's share image description and language", () => {
    const result = parseSettings({ SITE_TRADITION: "tibetan", SITE_LANGUAGE: "en", SITE_NAME: "Dechen Ling" });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    const { translator } = siteLanguage(result.settings.site.language, "tibetan", "Dechen Ling");
    expect(translator.t("meta.shareImageAlt", { site: "Dechen Ling" })).toMatch(/^Dechen Ling: an endless knot/);
  });
});

// Tibetan letters U+0F40–U+0F6C, and names made of syllables of them.
const letter = fc
  .integer({ min: 0x0f40, max: 0x0f6c })
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /\p{L}/u.test(char));
const syllable = fc.array(letter, { minLength: 1, maxLength: 3 }).map((letters) => letters.join(""));
const tibetanName = fc
  .tuple(fc.array(syllable, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([syllables, tsheg]) => syllables.join("་") + (tsheg ? "་" : ""));

describe("Tibetan and Dzongkha at the join of a name and a shad", () => {
  it("keeps the tsheg after ང, drops it after any other letter, writes no shad after a final ཀ or ག", () => {
    expect(withShad("བདེ་ཆེན་ཆོས་གླིང")).toBe("བདེ་ཆེན་ཆོས་གླིང་།");
    expect(withShad("བདེ་ཆེན་ཕོ་བྲང་")).toBe("བདེ་ཆེན་ཕོ་བྲང་།");
    expect(withShad("བཀྲ་ཤིས་")).toBe("བཀྲ་ཤིས།");
    expect(withShad("དགོན་པ་ཆེན་པོ་ཐོག")).toBe("དགོན་པ་ཆེན་པོ་ཐོག");
    expect(withShad("Zen Centre")).toBe("Zen Centre།");
  });

  it("joins any name that ends in any letter by the rules (generated names)", () => {
    fc.assert(
      fc.property(tibetanName, (name) => {
        const joined = withShad(name);
        const bare = name.replace(/་$/u, "");
        const last = bare.charAt(bare.length - 1);
        if (last === "ང") expect(joined).toBe(`${bare}་།`);
        else if (last === "ཀ" || last === "ག") expect(joined).toBe(bare);
        else expect(joined).toBe(`${bare}།`);
        // What the translation check asks of translations' own text holds for every join made.
        expect(shadProblems(joined)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("writes the joins of a language's translations out for the site's name, and no other placeholder", () => {
    const messages = {
      "footer.copyright": "© ༢༠༢༤ {site}། པར་དབང་།",
      "search.count": { other: "{count} {site}།" },
      x: "{query}།",
    };
    expect(joinNamesWithShad(messages, { site: "བདེ་ཆེན་ཆོས་གླིང" })).toEqual({
      "footer.copyright": "© ༢༠༢༤ བདེ་ཆེན་ཆོས་གླིང་། པར་དབང་།",
      "search.count": { other: "{count} བདེ་ཆེན་ཆོས་གླིང་།" },
      x: "{query}།",
    });
  });

  it("a Tibetan site's pages carry the joined name, other languages' translations are untouched", () => {
    const bo = siteLanguage({ tag: "bo", translations: "bo" }, "tibetan", "བདེ་ཆེན་ཆོས་གླིང");
    expect(bo.translator.t("footer.copyright", { site: "བདེ་ཆེན་ཆོས་གླིང" })).toContain("བདེ་ཆེན་ཆོས་གླིང་།");
    expect(bo.translator.t("footer.copyright", { site: "བདེ་ཆེན་ཆོས་གླིང" })).not.toContain("གླིང།");
    const en = siteLanguage({ tag: "en", translations: "en" }, "zen", "Zen");
    expect(en.messages).toEqual(forTradition(translations, "zen"));
  });

  it("the translation check finds each broken rule", () => {
    expect(shadProblems("ཆོས་གླིང།")).toEqual(["ང before a shad without its tsheg (ང་།)"]);
    expect(shadProblems("བཀྲ་ཤིས་།")).toEqual(["a tsheg before a shad (only ང keeps it: ང་།)"]);
    expect(shadProblems("ཐོག།")).toEqual(["a shad after a final ཀ or ག, which takes none"]);
    expect(shadProblems("ཆོས་གླིང་། བཀྲ་ཤིས། ཐོག")).toEqual([]);
  });
});

describe("sentences one after another", () => {
  it("with no space in Chinese and Japanese, with one elsewhere", () => {
    expect(joinSentences("zh-Hans", "文章过长。", "结尾已省略。")).toBe("文章过长。结尾已省略。");
    expect(joinSentences("ja", "長すぎます。", "末尾は省略。")).toBe("長すぎます。末尾は省略。");
    expect(joinSentences("en", "Too long.", "Its end is left out.")).toBe("Too long. Its end is left out.");
    expect(joinSentences("th", "ยาวเกินไป", "ส่วนท้ายถูกตัดออก")).toBe("ยาวเกินไป ส่วนท้ายถูกตัดออก");
  });
});

describe("a site's own About text", () => {
  const folders: string[] = [];
  const folder = () => {
    folders.push(mkdtempSync(path.join(tmpdir(), "about-")));
    return folders.at(-1)!;
  };
  afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const render = async (markdown: string) => ({
    html: `<p>${markdown.replace(/</g, "&lt;")}</p>`,
    words: markdown.split(/\s+/).length,
  });
  const siteWith = (file: string, given: boolean, key = file) => ({ key, label: "test", about: { file, given } });

  it("is ABOUT_FILE, else _about.md among the site's articles", () => {
    expect(aboutSourceOf("docs/about.md", "/srv/content")).toEqual({
      file: path.resolve("docs/about.md"),
      given: true,
    });
    expect(aboutSourceOf(undefined, "/srv/content")).toEqual({ file: "/srv/content/_about.md", given: false });
  });

  it("is rendered once per site, as an article body is", async () => {
    const dir = folder();
    const file = path.join(dir, "_about.md");
    writeFileSync(file, "Our temple <b>welcomes</b> you.");
    const renderer = vi.fn(render);
    expect(await aboutHtml(siteWith(file, false, "once"), renderer)).toBe(
      "<p>Our temple &lt;b>welcomes&lt;/b> you.</p>",
    );
    await aboutHtml(siteWith(file, false, "once"), renderer);
    expect(renderer).toHaveBeenCalledTimes(1);
  });

  it("keeps the page's one h1: the text's headings are the About section's h3", async () => {
    const file = path.join(folder(), "_about.md");
    writeFileSync(file, "# Our temple");
    const html = await aboutHtml(siteWith(file, true), async () => ({
      html: "<h1>Our temple</h1><h2>Times</h2><p>&lt;h1&gt;</p>",
      words: 2,
    }));
    expect(html).toBe("<h3>Our temple</h3><h3>Times</h3><p>&lt;h1&gt;</p>");
  });

  it("is the tradition's words when there is no file, and says why when one cannot be shown", async () => {
    const dir = folder();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await aboutHtml(siteWith(path.join(dir, "_about.md"), false), render)).toBeUndefined();
      expect(warn).not.toHaveBeenCalled();
      expect(await aboutHtml(siteWith(path.join(dir, "missing.md"), true), render)).toBeUndefined();
      expect(warn.mock.calls.at(-1)?.[0]).toMatch(/missing\.md is not shown: ENOENT/);
      const large = path.join(dir, "large.md");
      writeFileSync(large, "a".repeat(ABOUT_MAX_BYTES + 1));
      expect(await aboutHtml(siteWith(large, true), render)).toBeUndefined();
      expect(warn.mock.calls.at(-1)?.[0]).toMatch(/larger than 32 KB/);
      const binary = path.join(dir, "binary.md");
      writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
      expect(await aboutHtml(siteWith(binary, true), render)).toBeUndefined();
      expect(warn.mock.calls.at(-1)?.[0]).toMatch(/not UTF-8/);
      const blank = path.join(dir, "blank.md");
      writeFileSync(blank, " \n\n ");
      expect(await aboutHtml(siteWith(blank, true), render)).toBeUndefined();
    } finally {
      warn.mockRestore();
    }
  });

  it("of any content within the bound, is shown or falls back, never throws (generated files)", async () => {
    const dir = folder();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 2000 }),
            fc.uint8Array({ maxLength: 2000 }),
            fc.constant("x".repeat(ABOUT_MAX_BYTES)),
          ),
          async (content) => {
            const file = path.join(dir, `f${(n += 1)}.md`);
            writeFileSync(file, content);
            const html = await aboutHtml(siteWith(file, true), render);
            if (html !== undefined) expect(html.startsWith("<p>")).toBe(true);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      warn.mockRestore();
    }
  });
});
