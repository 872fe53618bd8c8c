import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { translationTags } from "~/i18n/translations.server";
import { formatPublishedDate } from "~/blog/dates";
import { buddhistEraYear } from "~/i18n/buddhist-era";
import { formatLongDate } from "~/i18n/long-date";
import { createTranslator, type PluralKey, type Translations } from "~/i18n/messages";
import { digitsOf, formatCount, formatNumeral } from "~/i18n/numbers";

// Where Node's locale data (ICU 78, CLDR 48) is missing or wrong for a language, the site's translations supply
// the pattern (docs/decisions/044): no page in the nine languages of that decision shows an English word, a
// Latin era, a doubled month name, or digits other than the language's own.

const read = (tag: string) => JSON.parse(readFileSync(`locales/${tag}.json`, "utf8")) as Translations;
const english = read("en");
const shipped = translationTags();

/** The nine languages of decision 44, with the digits CLDR makes their default. */
const NINE = {
  "zh-Hans": "latn",
  my: "mymr",
  si: "latn",
  km: "latn",
  lo: "latn",
  bo: "latn",
  dz: "tibt",
  mn: "latn",
  ne: "deva",
} as const;
const nine = Object.keys(NINE) as (keyof typeof NINE)[];
/** The letters each writes in: Unicode's script of the tag's likely script. */
const SCRIPT = {
  Hans: "Han",
  Mymr: "Myanmar",
  Sinh: "Sinhala",
  Khmr: "Khmer",
  Laoo: "Lao",
  Tibt: "Tibetan",
  Cyrl: "Cyrillic",
  Deva: "Devanagari",
} as const;
/** Names that stay as their owners write them. */
const BRANDS = /Pinterest|YouTube Shorts?|RSS|Mastodon/g;

const pluralKeys = Object.keys(english).filter((key) => typeof english[key] === "object") as PluralKey[];
const date = fc.date({
  min: new Date(Date.UTC(1900, 0, 1)),
  max: new Date(Date.UTC(2100, 11, 31)),
  noInvalidDate: true,
});
const calendars = ["", "-u-ca-buddhist"] as const;

describe("numbers in the language's digits", () => {
  it("follow the language's default numbering system", () => {
    for (const lang of nine)
      expect(new Intl.NumberFormat(lang).resolvedOptions().numberingSystem, lang).toBe(NINE[lang]);
    expect(digitsOf("my")).toBe("၀၁၂၃၄၅၆၇၈၉");
    expect(digitsOf("dz")).toBe("༠༡༢༣༤༥༦༧༨༩");
    expect(digitsOf("ne")).toBe("०१२३४५६७८९");
    expect(digitsOf("km")).toBe("0123456789");
    // The tag may ask for others.
    expect(digitsOf("km-u-nu-khmr")).toBe("០១២៣៤៥៦៧៨៩");
  });

  it("page numbers are ungrouped, counts grouped as the language groups them", () => {
    expect(formatNumeral("en", 1234)).toBe("1234");
    expect(formatNumeral("dz", 12)).toBe("༡༢");
    expect(formatCount("ne", 1234567)).toBe("१२,३४,५६७");
    expect(formatCount("my", 1000)).toBe("၁,၀၀၀");
    const my = createTranslator("my", read("my"));
    expect(my.numeral(2)).toBe("၂");
    expect(my.t("pagination.page", { number: 12 })).toBe("စာမျက်နှာ ၁၂");
    expect(my.t("meta.blogPage", { page: 3 })).toBe("ဆောင်းပါးများ၊ စာမျက်နှာ ၃");
    expect(createTranslator("en", english).t("pagination.page", { number: 1234 })).toBe("Page 1234");
  });

  it("any count has a message in every language's translations, in the form Intl.PluralRules picks, with the count in the language's digits", () => {
    const translators = shipped.map((tag) => ({
      tag,
      translations: read(tag),
      translator: createTranslator(tag, read(tag)),
      digits: digitsOf(tag),
    }));
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 10_000_000 })), (count) => {
        for (const { tag, translations, translator, digits } of translators) {
          const form = new Intl.PluralRules(tag).select(count);
          for (const key of pluralKeys) {
            const template = (translations[key] as Partial<Record<string, string>>)[form];
            expect(template, `${tag} ${key}.${form}`).toBeDefined();
            const message = translator.plural(key, count);
            if (template!.includes("{count}"))
              expect(message, `${tag} ${key} ${count}`).toContain(formatCount(tag, count));
            for (const [digit] of message.matchAll(/\p{Nd}/gu)) expect(digits, `${tag}: ${message}`).toContain(digit);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("the nine languages' translations", () => {
  it.each(nine)("%s writes in its own script, apart from the names of Pinterest, YouTube, RSS and Mastodon", (tag) => {
    const script = SCRIPT[new Intl.Locale(tag).maximize().script as keyof typeof SCRIPT];
    const own = new RegExp(`\\p{Script=${script}}`, "u");
    const values = Object.values(read(tag)).flatMap((message) =>
      typeof message === "string" ? [message] : Object.values(message),
    );
    const foreign = values.flatMap((text) =>
      [
        ...(text ?? "")
          .replace(BRANDS, "")
          .replace(/\{\w+\}/g, "")
          .matchAll(/\p{L}/gu),
      ].map(([letter]) => letter!),
    );
    expect(foreign.filter((letter) => !own.test(letter))).toEqual([]);
  });
});

describe("long dates in the nine languages", () => {
  const cases = nine.flatMap((lang) =>
    calendars.map((calendar) => ({
      tag: `${lang}${calendar}`,
      lang,
      translations: read(lang),
      digits: digitsOf(lang),
    })),
  );

  it("never show a Latin letter, a doubled month name, or digits other than the language's, in either calendar", () => {
    fc.assert(
      fc.property(date, (day) => {
        const time = day.getTime();
        for (const { tag, lang, translations, digits } of cases) {
          const label = formatLongDate(time, tag, translations);
          expect(label, tag).not.toMatch(/[A-Za-z]/);
          for (const [digit] of label.matchAll(/\p{Nd}/gu)) expect(digits, `${tag}: ${label}`).toContain(digit);
          const parts = new Intl.DateTimeFormat(lang, { month: "long", day: "numeric", timeZone: "UTC" }).formatToParts(
            time,
          );
          // A month written in words is there once (ICU's stand-alone Dzongkha months say it twice).
          const month = parts.find((part) => part.type === "month")!.value.replace(/་$/, "");
          if (/\p{L}/u.test(month)) expect(label.split(month).length - 1, `${tag}: ${label}`).toBe(1);
          expect(label, tag).not.toContain("སྤྱི་སྤྱི");
          // The Buddhist era as the language's country counts it (app/i18n/buddhist-era.ts), or the Gregorian year.
          const era = tag.endsWith("buddhist") ? buddhistEraYear(lang, time) : "gregorian";
          const year = era === "gregorian" ? day.getUTCFullYear() : (era ?? day.getUTCFullYear() + 543);
          expect(label, tag).toContain(formatNumeral(lang, year));
          expect(label, tag).toContain(parts.find((part) => part.type === "day")!.value);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("take the era's name from the translations where ICU writes it in Latin letters, and ICU's own elsewhere", () => {
    const on = (tag: string, lang: string) => formatPublishedDate("2024-01-05", tag, read(lang));
    expect(on("km-u-ca-buddhist", "km")).toBe("5 មករា ព.ស. 2567");
    expect(on("my-u-ca-buddhist", "my")).toBe("သာသနာနှစ် ၂၅၆၇ ခု ဇန်နဝါရီ ၅ ရက်");
    expect(on("si-u-ca-buddhist", "si")).toBe("බු.ව. 2567 දුරුතු 5");
    expect(on("ne-u-ca-buddhist", "ne")).toBe("बुद्ध संवत् २५६७ जनवरी ५");
    // Mongolian, Tibetan and Dzongkha do not count this era: a tag that asks for it gets Gregorian dates.
    expect(on("mn-u-ca-buddhist", "mn")).toBe(on("mn", "mn"));
    expect(on("dz-u-ca-buddhist", "dz")).toBe(on("dz", "dz"));
    // ICU writes Lao's and Chinese's eras in their own script, and Thai's dates are as Thailand writes them.
    expect(on("lo-u-ca-buddhist", "lo")).toBe("ພ.ສ. 5 ມັງກອນ 2566");
    expect(on("zh-Hans-u-ca-buddhist", "zh-Hans")).toBe("佛历2567年1月5日");
    expect(on("th", "th")).toBe("5 มกราคม 2567");
    // In the Gregorian calendar, the language's default, ICU's long date serves all nine.
    expect(on("dz", "dz")).toBe("སྤྱི་ལོ་༢༠༢༤ ཟླ་དངཔ་ ཚེས་ ༥");
    expect(on("my", "my")).toBe("၂၀၂၄ ဇန်နဝါရီ ၅");
    expect(on("ne", "ne")).toBe("२०२४ जनवरी ५");
  });
});
