import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { translationProblems } from "~/i18n/translation-check";
import { resolveLanguage, siteLanguage, translationTags } from "~/i18n/translations.server";
import { canonicalTag, openGraphLocale, textDirection, translationCandidates } from "~/i18n/language";
import { createTranslator, formatMessage, messageParts, type Translations } from "~/i18n/messages";
import { translatorOf } from "~/i18n/use-translation";
import { formatPublishedDate } from "~/blog/dates";
import { breakUnits, fitLines, splitLines } from "~/crawlers/share-image";
import { parseSettings } from "~/site/config.server";

const read = (tag: string) => JSON.parse(readFileSync(`locales/${tag}.json`, "utf8")) as Translations;
const english = read("en");
const shipped = translationTags();

describe("the translations", () => {
  it("ship at least the seventeen languages of docs/languages.md", () => {
    expect(shipped).toEqual(
      expect.arrayContaining([
        "en",
        "vi",
        "th",
        "ja",
        "ko",
        "zh-Hant",
        "de",
        "es",
        "zh-Hans",
        "my",
        "si",
        "km",
        "lo",
        "bo",
        "dz",
        "mn",
        "ne",
      ]),
    );
    expect(translationTags()).toEqual([...shipped].sort());
  });

  it("are each listed in docs/languages.md's table of catalogs, which lists no other", () => {
    const page = readFileSync("docs/languages.md", "utf8");
    const start = page.indexOf("| tag | language |");
    expect(start, "docs/languages.md has the table of catalogs").toBeGreaterThanOrEqual(0);
    const rows: string[] = [];
    for (const line of page.slice(start).split("\n")) {
      if (!line.startsWith("|")) break;
      rows.push(line);
    }
    const listed = [...rows.join("\n").matchAll(/\| `([\w-]+)` \|/g)].map(([, tag]) => tag);
    expect([...listed].sort()).toEqual([...shipped].sort());
  });

  it.each(shipped)(
    "%s has every key of English and no other, the same placeholders, and the language's plural forms",
    (tag) => {
      expect(translationProblems(read(tag), english, tag)).toEqual([]);
    },
  );

  it.each(shipped.filter((tag) => tag !== "en"))("%s is written in its own words, not left in English", (tag) => {
    const translations = read(tag);
    // A tradition's pillar titles are often its own Pāli or Sanskrit terms (Sīla, Samādhi), the same in every
    // Latin-script language: they do not count.
    const pillarTitle = (key: string) => /^tradition\.[\w-]+\.about\.pillar\d\.title$/.test(key);
    const same = Object.keys(english).filter(
      (key) => typeof english[key] === "string" && translations[key] === english[key] && !pillarTitle(key),
    );
    // Words that are the same in both (Blog, Zazen, Video) are few; translations copied from English are not.
    expect(same.length, `keys left as in English: ${same.join(", ")}`).toBeLessThanOrEqual(5);
  });

  it("the check finds a missing key, an extra one, a placeholder that differs, and plural forms that are not the language's", () => {
    const { "nav.home": _dropped, ...lacking } = english;
    expect(translationProblems(lacking, english, "en")).toEqual(['lacks "nav.home"']);
    expect(translationProblems({ ...english, "nav.shop": "Shop" }, english, "en")).toEqual([
      'has "nav.shop", which English has not',
    ]);
    expect(translationProblems({ ...english, "hero.title": "Discover {produkt} Buddhism" }, english, "en")).toEqual([
      '"hero.title" has placeholders produkt, English product',
    ]);
    expect(translationProblems({ ...english, "donation.title": "Support us" }, english, "en")).toEqual([
      '"donation.title" has placeholders none, English site',
    ]);
    expect(
      translationProblems({ ...english, "article.readingTime": { other: "{count} Min." } }, english, "de"),
    ).toEqual(['"article.readingTime" has the plural forms other, the language one, other']);
    expect(translationProblems({ ...english, "article.readingTime": "{count} min" }, english, "en")[0]).toMatch(
      /one message per plural form/,
    );
    // The form for exactly one may say it in words …
    expect(
      translationProblems(
        { ...english, "article.readingTime": { one: "one minute", other: "{count} minutes" } },
        english,
        "en",
      ),
    ).toEqual([]);
    // … but not where "one" is 0 and 1 as well (Sinhala), or 21 and 31 (Russian): there it shows the number.
    expect(
      translationProblems(
        { ...read("si"), "article.readingTime": { one: "එක් මිනිත්තුවක්", other: "මිනිත්තු {count}" } },
        english,
        "si",
      ),
    ).toEqual(['"article.readingTime.one" has placeholders none, English count']);
  });

  it("the check holds digits to the language's own, and the patterns of app/i18n/patterns.ts to their placeholders", () => {
    expect(translationProblems({ ...read("my"), "footer.copyright": "© 2024 {site}။" }, english, "my")).toEqual([
      '"footer.copyright" has the digits 2024, the language writes ၀၁၂၃၄၅၆၇၈၉',
    ]);
    expect(translationProblems({ ...english, "footer.copyright": "© ၂၀၂၄ {site}." }, english, "en")).toEqual([
      '"footer.copyright" has the digits ၂၀၂၄, the language writes 0123456789',
    ]);
    // A pattern English has not is a key translations may add, with its own placeholders …
    expect(translationProblems({ ...english, "date.buddhist": "{day} {month} BE {year}" }, english, "en")).toEqual([]);
    expect(translationProblems({ ...english, "date.buddhist": "{day} {month}" }, english, "en")).toEqual([
      '"date.buddhist" has placeholders day, month, the pattern day, month, year',
    ]);
    // … and any other key English has not is still one too many.
    expect(translationProblems({ ...english, "date.gregorian": "{day}" }, english, "en")).toEqual([
      'has "date.gregorian", which English has not',
    ]);
  });
});

describe("SITE_LANGUAGE", () => {
  it("finds the nearest translations: the tag, its language with its likely script, the language", () => {
    expect(resolveLanguage("vi")).toEqual({ ok: true, tag: "vi", translations: "vi" });
    expect(resolveLanguage("zh-hant")).toEqual({ ok: true, tag: "zh-Hant", translations: "zh-Hant" });
    expect(resolveLanguage("zh-TW")).toEqual({ ok: true, tag: "zh-TW", translations: "zh-Hant" });
    expect(resolveLanguage("de-AT")).toEqual({ ok: true, tag: "de-AT", translations: "de" });
    expect(resolveLanguage(" ja ")).toEqual({ ok: true, tag: "ja", translations: "ja" });
    expect(translationCandidates("zh-TW")).toEqual(["zh-TW", "zh-Hant"]);
    expect(translationCandidates("de-AT")).toEqual(["de-AT", "de-Latn", "de"]);
    expect(canonicalTag("not a tag")).toBeUndefined();
  });

  it("serves Chinese by script: Simplified for zh, zh-CN and zh-SG, Traditional for zh-TW, zh-HK and zh-MO", () => {
    for (const tag of ["zh", "zh-CN", "zh-SG", "zh-Hans", "zh-hans-cn", "cmn"])
      expect(resolveLanguage(tag), tag).toMatchObject({ ok: true, translations: "zh-Hans" });
    for (const tag of ["zh-TW", "zh-HK", "zh-MO", "zh-Hant", "zh-Hant-HK"])
      expect(resolveLanguage(tag), tag).toMatchObject({ ok: true, translations: "zh-Hant" });
    // The tag as asked stays the pages' (Singapore's dates, <html lang="zh-SG">).
    expect(resolveLanguage("zh-SG")).toEqual({ ok: true, tag: "zh-SG", translations: "zh-Hans" });
    expect(siteLanguage({ tag: "zh-CN", translations: "zh-Hans" })).toMatchObject({ lang: "zh-CN", ogLocale: "zh_CN" });
  });

  it("serves the nine languages added with decision 44 by their tags, with a region, and with the calendar or digits asked for", () => {
    const regions = {
      my: "my-MM",
      si: "si-LK",
      km: "km-KH",
      lo: "lo-LA",
      bo: "bo-IN",
      dz: "dz-BT",
      mn: "mn-MN",
      ne: "ne-NP",
    };
    for (const [translations, tag] of Object.entries(regions)) {
      expect(resolveLanguage(translations)).toEqual({ ok: true, tag: translations, translations });
      expect(resolveLanguage(tag)).toEqual({ ok: true, tag, translations });
    }
    expect(resolveLanguage("km-u-ca-buddhist")).toEqual({ ok: true, tag: "km-u-ca-buddhist", translations: "km" });
    expect(resolveLanguage("km-KH-u-nu-khmr")).toEqual({ ok: true, tag: "km-KH-u-nu-khmr", translations: "km" });
    expect(resolveLanguage("mn-Cyrl-MN")).toEqual({ ok: true, tag: "mn-Cyrl-MN", translations: "mn" });
  });

  it("does not serve a script with another script's translations: Mongolian in its own script is not served by the Cyrillic ones", () => {
    expect(translationCandidates("mn-Mong")).toEqual(["mn-Mong"]);
    const mongolian = resolveLanguage("mn-Mong");
    expect(!mongolian.ok && mongolian.problem).toMatch(/^has no translations for "mn-Mong"/);
  });

  it("refuses a tag with no translations, or no tag at all, saying which translations there are", () => {
    const missing = resolveLanguage("fr");
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.problem).toMatch(
      /^has no translations for "fr" in locales\/ \(there are: .*\bvi\b.*\)$/,
    );
    // Cantonese is not Mandarin, whatever the script: no translations serve it.
    expect(resolveLanguage("yue-HK").ok).toBe(false);
    expect(resolveLanguage("english please")).toEqual({
      ok: false,
      problem: 'must be a language tag such as en, vi, ja or zh-Hant, not "english please"',
    });
  });

  it("is part of a site's settings: English by default, and a wrong one is a problem named by its setting", () => {
    const ok = parseSettings({ SITE_LANGUAGE: "ja" });
    expect(ok.ok && ok.settings.site.language).toEqual({ tag: "ja", translations: "ja" });
    const unset = parseSettings({});
    expect(unset.ok && unset.settings.site.language).toEqual({ tag: "en", translations: "en" });
    const wrong = parseSettings({ SITE_LANGUAGE: "xx" });
    expect(!wrong.ok && wrong.problems).toEqual([expect.stringMatching(/^SITE_LANGUAGE has no translations for "xx"/)]);
  });

  it("gives the pages their lang, dir and Open Graph locale", () => {
    expect(siteLanguage({ tag: "vi", translations: "vi" })).toMatchObject({
      lang: "vi",
      dir: "ltr",
      ogLocale: "vi_VN",
    });
    expect(siteLanguage({ tag: "zh-Hant", translations: "zh-Hant" })).toMatchObject({ ogLocale: "zh_TW" });
    expect(openGraphLocale("en")).toBe("en_US");
    expect(openGraphLocale("ja")).toBe("ja_JP");
    expect(openGraphLocale("de-AT")).toBe("de_AT");
    expect(textDirection("ar")).toBe("rtl");
    expect(textDirection("he-IL")).toBe("rtl");
    expect(textDirection("th")).toBe("ltr");
  });
});

describe("messages", () => {
  it("fill their placeholders, and leave unknown ones as written", () => {
    expect(formatMessage("Support {site}", { site: "Zen Sangha" })).toBe("Support Zen Sangha");
    expect(formatMessage("{a} and {b}", { a: 1 })).toBe("1 and {b}");
    expect(messageParts("Published on {date}", { date: 42 })).toEqual(["Published on ", 42]);
    expect(messageParts("{date} 公開", { date: 42 })).toEqual([42, " 公開"]);
  });

  it("take the language's plural form (Intl.PluralRules) and its digits", () => {
    const de = createTranslator("de", read("de"));
    expect(de.plural("article.readingTime", 1)).not.toBe(de.plural("article.readingTime", 5).replace("5", "1"));
    const en = createTranslator("en", english);
    expect(en.plural("article.readingTime", 1)).toBe("1 min read");
    expect(en.plural("article.readingTime", 12)).toBe("12 min read");
    expect(
      createTranslator("en", { n: { one: "one", other: "{count} many" } } as Translations).plural("n" as never, 1200),
    ).toBe("1,200 many");
  });

  it("are translated in the tag of the site, also where sites of one process share translations in different tags", () => {
    const messages = read("km");
    expect(translatorOf({ lang: "km", messages }).numeral(12)).toBe("12");
    expect(translatorOf({ lang: "km-u-nu-khmr", messages }).numeral(12)).toBe("១២");
    expect(translatorOf({ lang: "km", messages }).lang).toBe("km");
    expect(translatorOf({ lang: "km", messages })).toBe(translatorOf({ lang: "km", messages }));
  });

  it("keep English word for word as the spec has it", () => {
    const { t } = createTranslator("en", english);
    expect(t("hero.title", { product: "Zen" })).toBe("Discover the Ancient Wisdom of Zen Buddhism");
    expect(t("donation.title", { site: "Zen Buddhism" })).toBe("Support Zen Buddhism");
    expect([t("donation.later"), t("donation.donate"), t("blog.emptyTitle"), t("blog.emptyText")]).toEqual([
      "Maybe Later",
      "Donate Now",
      "No blogs found",
      "Check back later for new content.",
    ]);
    expect([t("blog.failed"), t("article.failed"), t("article.missing"), t("notFound.title")]).toEqual([
      "Failed to load blogs. Please try again later.",
      "Failed to load blog post. Please try again later.",
      "The requested article could not be found.",
      "Oops! Page not found",
    ]);
  });
});

describe("dates in the site's language", () => {
  it("use the language's long form, on the day written whatever the time zone", () => {
    expect(formatPublishedDate("2024-01-05")).toBe("January 5, 2024");
    expect(formatPublishedDate("2024-01-05", "vi")).toBe("5 tháng 1, 2024");
    expect(formatPublishedDate("2024-01-05", "ja")).toBe("2024年1月5日");
    expect(formatPublishedDate("2024-01-05", "ko")).toBe("2024년 1월 5일");
    expect(formatPublishedDate("2024-01-05", "de")).toBe("5. Januar 2024");
    expect(formatPublishedDate("2024-01-05", "es")).toBe("5 de enero de 2024");
    // Thailand counts years in the Buddhist era.
    expect(formatPublishedDate("2024-01-05", "th")).toBe("5 มกราคม 2567");
    for (const lang of ["en", "vi", "ja", "de", "zh-Hant"])
      expect(formatPublishedDate("2024-12-31", lang)).toMatch(/31/);
  });
});

describe("the share image's text in scripts written without spaces", () => {
  it("breaks Japanese, Chinese and Thai between words, never inside one, and keeps punctuation with its word", () => {
    const units = breakUnits("禅仏教に伝わる、いにしえの智慧", "ja").map((unit) => unit.text);
    expect(units.join("")).toBe("禅仏教に伝わる、いにしえの智慧");
    expect(units.length).toBeGreaterThan(3);
    expect(units.some((unit) => unit.startsWith("、"))).toBe(false);
    const thai = splitLines("ค้นพบปัญญาอันเก่าแก่แห่งพุทธศาสนา", 2, "th");
    expect(thai).toHaveLength(2);
    expect(thai.join("")).toBe("ค้นพบปัญญาอันเก่าแก่แห่งพุทธศาสนา");
    // Where the language writes spaces, lines break at them as before.
    expect(fitLines("Chan Practice Center", 14, 3, "en")).toEqual(["Chan Practice", "Center"]);
    // A line of Japanese is as wide as half again as many Latin letters.
    expect(fitLines("禅の道場静けさの森", 12, 3, "ja").length).toBeGreaterThan(1);
  });
});
