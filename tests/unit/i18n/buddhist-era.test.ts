import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buddhistEraYear } from "~/i18n/buddhist-era";
import { translationTags } from "~/i18n/translations.server";
import { formatLongDate } from "~/i18n/long-date";
import { formatMessage, type Translations } from "~/i18n/messages";
import { patternOf } from "~/i18n/patterns";
import { FIRST_YEAR, LAST_YEAR, USUAL_VESAK, VESAK } from "~/i18n/vesak-dates";
import { moduleSource, vesakTable } from "../../../scripts/vesak-table.mjs";

// The year of the Buddhist era as each language's country counts it (docs/decisions/061): Sri Lanka and Nepal
// from the full moon of Vesākha, Cambodia from the day after it, Myanmar from its New Year, Laos from its New
// Year one lower; Thai and every other language as ICU counts it; Tibetan, Dzongkha and Mongolian Gregorian.

const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const read = (language: string) => JSON.parse(readFileSync(`locales/${language}.json`, "utf8")) as Translations;
const yearIn = (tag: string, year: number) => new Intl.NumberFormat(tag, { useGrouping: false }).format(year);

/** The table's full moon of Vesākha of a year, as a UTC midnight. */
function vesak(language: keyof typeof VESAK, year: number): number {
  const day = VESAK[language][year - FIRST_YEAR]!;
  return Date.UTC(year, Math.floor(day / 100) - 1, day % 100);
}

/** Per language: the number of a year before its turn (Common Era plus), and the turn's day. */
const TURN = {
  si: { before: 543, turn: (year: number) => vesak("si", year) },
  km: { before: 543, turn: (year: number) => vesak("km", year) + DAY },
  ne: { before: 543, turn: (year: number) => vesak("ne", year) },
  my: { before: 543, turn: (year: number) => myanmarNewYear(year) },
  lo: { before: 542, turn: (year: number) => Date.UTC(year, 3, 16) },
} as const;
type Counted = keyof typeof TURN;
const COUNTED = Object.keys(TURN) as Counted[];

/** Myanmar's New Year's Day found the long way: the first day whose Myanmar year (by the committee's constants) is the next. */
function myanmarNewYear(year: number): number {
  const myanmarYear = (day: number) =>
    Math.floor((day / DAY + 2440588 - 0.5 - 1954168.050623) / (1577917828 / 4320000));
  let day = Date.UTC(year, 3, 1);
  while (myanmarYear(day) < year - 638) day += DAY;
  return day;
}

/**
 * Published dates: Sri Lanka's Vesak full moon poya (the government's holiday calendars, 2003–2026), Cambodia's
 * Visak Bochea (the government's holiday lists), Nepal's Buddha Jayanti (Nepali press), and the first day of the
 * new year in Myanmar (Ministry of Information, press) and Laos (Lao New Year, its last day).
 */
const PUBLISHED = {
  si: [
    "2003-05-15",
    "2004-05-04",
    "2005-05-23",
    "2006-05-12",
    "2007-05-01",
    "2008-05-19",
    "2009-05-08",
    "2010-05-27",
    "2011-05-17",
    "2012-05-05",
    "2013-05-24",
    "2014-05-14",
    "2015-05-03",
    "2016-05-21",
    "2017-05-10",
    "2018-04-29",
    "2019-05-18",
    "2020-05-07",
    "2021-05-26",
    "2022-05-15",
    "2023-05-05",
    "2024-05-23",
    "2025-05-12",
    "2026-05-01",
  ],
  km: [
    "2008-05-19",
    "2010-04-28",
    "2011-05-17",
    "2020-05-06",
    "2021-04-26",
    "2022-05-15",
    "2023-05-04",
    "2024-05-22",
    "2025-05-11",
  ],
  ne: ["2020-05-07", "2021-05-26", "2023-05-05", "2024-05-23"],
} as const;
const NEW_YEARS = {
  my: ["2013-04-17", "2019-04-17", "2024-04-17"],
  lo: ["2013-04-16", "2017-04-16", "2025-04-16"],
} as const;

describe("the table of Vesākha's full moons", () => {
  it("is what scripts/vesak-table.mjs computes with astronomy-engine today", () => {
    expect(readFileSync("app/i18n/vesak-dates.ts", "utf8")).toBe(moduleSource(vesakTable()));
  });

  it("gives every published date: Vesak poya, Visak Bochea, Buddha Jayanti", () => {
    for (const [language, dates] of Object.entries(PUBLISHED) as [keyof typeof PUBLISHED, readonly string[]][]) {
      for (const date of dates) expect(iso(vesak(language, Number(date.slice(0, 4)))), language).toBe(date);
    }
    // 2010's first Vesākha full moon was Sri Lanka's Adhi Vesak (28 April), not its Vesak.
    expect(iso(vesak("si", 2010))).not.toBe("2010-04-28");
  });

  it("has a full moon between mid-April and mid-June for every year of its range, and the usual day outside it", () => {
    for (const language of ["si", "km", "ne"] as const) {
      expect(VESAK[language]).toHaveLength(LAST_YEAR - FIRST_YEAR + 1);
      for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
        const day = iso(vesak(language, year)).slice(5);
        expect(day >= "04-14" && day <= "06-15", `${language} ${year}: ${day}`).toBe(true);
      }
      // Before and after the table, the year turns on the table's middle day (Cambodia's the day after it).
      for (const year of [FIRST_YEAR - 1, LAST_YEAR + 1]) {
        const usual =
          Date.UTC(year, Math.floor(USUAL_VESAK[language] / 100) - 1, USUAL_VESAK[language] % 100) +
          (language === "km" ? DAY : 0);
        expect(buddhistEraYear(language, usual - DAY)).toBe(year + 543);
        expect(buddhistEraYear(language, usual)).toBe(year + 544);
      }
    }
  });
});

describe("the year of the Buddhist era", () => {
  it("turns on the published new years of Myanmar and Laos", () => {
    for (const [language, dates] of Object.entries(NEW_YEARS) as [Counted, readonly string[]][]) {
      for (const date of dates) {
        const day = Date.parse(date);
        const year = Number(date.slice(0, 4));
        expect(buddhistEraYear(language, day - DAY), `${language}, the day before ${date}`).toBe(
          year + TURN[language].before,
        );
        expect(buddhistEraYear(language, day), `${language}, ${date}`).toBe(year + TURN[language].before + 1);
      }
    }
  });

  it("turns on the table's day in every year 2000–2040: both sides of the turn, in the long date too", () => {
    for (const language of COUNTED) {
      const tag = `${language}-u-ca-buddhist`;
      const translations = read(language);
      const { before, turn } = TURN[language];
      for (let year = 2000; year <= 2040; year += 1) {
        const day = turn(year);
        expect(buddhistEraYear(language, day - DAY), `${language}, the day before the turn of ${year}`).toBe(
          year + before,
        );
        expect(buddhistEraYear(language, day), `${language}, the turn of ${year}`).toBe(year + before + 1);
        expect(formatLongDate(day - DAY, tag, translations)).toContain(yearIn(tag, year + before));
        expect(formatLongDate(day, tag, translations)).toContain(yearIn(tag, year + before + 1));
      }
    }
    // Years before 100 are themselves, not 19xx.
    const early = new Date(0).setUTCFullYear(50, 5, 1);
    for (const language of COUNTED)
      expect(buddhistEraYear(language, early), language).toBe(50 + TURN[language].before + 1);
    // Cambodia: Visak Bochea itself still ends the old year; 1 Roach of Pisak begins the new one.
    expect(buddhistEraYear("km", Date.UTC(2024, 4, 22))).toBe(2567);
    expect(buddhistEraYear("km", Date.UTC(2024, 4, 23))).toBe(2568);
  });

  it("of any day is one of two numbers, never goes back, and changes once a Gregorian year, on the turn (generated dates)", () => {
    const days = fc
      .integer({ min: Date.UTC(1980, 0, 1) / DAY, max: Date.UTC(2110, 11, 30) / DAY })
      .map((day) => day * DAY);
    fc.assert(
      fc.property(fc.constantFrom(...COUNTED), days, (language, day) => {
        const year = new Date(day).getUTCFullYear();
        const { before, turn } = TURN[language];
        const era = buddhistEraYear(language, day) as number;
        expect([year + before, year + before + 1]).toContain(era);
        const next = buddhistEraYear(language, day + DAY) as number;
        expect(next === era || next === era + 1, `${language} ${iso(day)}: ${era} then ${next}`).toBe(true);
        if (year >= FIRST_YEAR && year <= LAST_YEAR) {
          // The one change of the year: from its first day's number to its last day's, on the turn.
          expect(buddhistEraYear(language, Date.UTC(year, 0, 1))).toBe(year + before);
          expect(buddhistEraYear(language, Date.UTC(year, 11, 31))).toBe(year + before + 1);
          expect(era).toBe(year + before + (day >= turn(year) ? 1 : 0));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("writes 2568 on 1 June 2024 in Sinhala, Burmese, Khmer and Nepali, in the tag's digits; Lao and Thai 2567", () => {
    const june = Date.UTC(2024, 5, 1);
    const on = (tag: string, language: string) => formatLongDate(june, tag, read(language));
    expect(on("si-u-ca-buddhist", "si")).toBe("බු.ව. 2568 පොසොන් 1");
    expect(on("my-u-ca-buddhist", "my")).toBe("သာသနာနှစ် ၂၅၆၈ ခု ဇွန် ၁ ရက်");
    expect(on("km-u-ca-buddhist", "km")).toBe("1 មិថុនា ព.ស. 2568");
    expect(on("km-KH-u-ca-buddhist-nu-khmr", "km")).toBe("១ មិថុនា ព.ស. ២៥៦៨");
    expect(on("ne-u-ca-buddhist", "ne")).toBe("बुद्ध संवत् २५६८ जुन १");
    expect(on("lo-u-ca-buddhist", "lo")).toBe("ພ.ສ. 1 ມິຖຸນາ 2567");
    expect(on("th", "th")).toBe("1 มิถุนายน 2567");
    // Before the turn: Sri Lanka's Vesak of 2024 was 23 May, Laos' New Year 16 April.
    expect(formatLongDate(Date.UTC(2024, 4, 22), "si-u-ca-buddhist", read("si"))).toBe("බු.ව. 2567 වෙසක් 22");
    expect(formatLongDate(Date.UTC(2024, 3, 15), "lo-u-ca-buddhist", read("lo"))).toBe("ພ.ສ. 15 ເມສາ 2566");
  });

  it("is not written in Tibetan, Dzongkha and Mongolian: a tag asking for the Buddhist calendar gets the Gregorian date", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("bo", "dz", "mn"),
        fc.integer({ min: Date.UTC(1900, 0, 1) / DAY, max: Date.UTC(2100, 11, 31) / DAY }),
        (language, day) => {
          const time = day * DAY;
          expect(formatLongDate(time, `${language}-u-ca-buddhist`, read(language))).toBe(
            formatLongDate(time, language, read(language)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("every other language's long date", () => {
  /** formatLongDate before decision 61: ICU's date, or the translations' pattern with ICU's Buddhist year. */
  const options = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;
  const formats = new Map<string, [Intl.DateTimeFormat, Intl.DateTimeFormat]>();
  function before(time: number, tag: string, translations: Translations): string {
    if (!formats.has(tag))
      formats.set(tag, [
        new Intl.DateTimeFormat(tag, options),
        new Intl.DateTimeFormat(tag, { ...options, calendar: "gregory" }),
      ]);
    const [own, gregorian] = formats.get(tag)!;
    const pattern =
      own.resolvedOptions().calendar === "buddhist" ? patternOf(translations, "date.buddhist") : undefined;
    if (!pattern) return own.format(time);
    const days = gregorian.formatToParts(time);
    const part = (parts: Intl.DateTimeFormatPart[], type: string) =>
      parts.find((found) => found.type === type)?.value ?? "";
    return formatMessage(pattern, {
      year: part(own.formatToParts(time), "year"),
      month: part(days, "month"),
      day: part(days, "day"),
    });
  }

  it("is what it was, byte for byte: Thai, Chinese and the rest in the Buddhist calendar, all seventeen in their own", () => {
    const languages = translationTags();
    expect(languages).toHaveLength(17);
    const uncounted = languages.filter((language) => !(language in TURN) && !["bo", "dz", "mn"].includes(language));
    const tags = [
      ...languages.map((language) => [language, language] as const),
      ...uncounted.map((language) => [`${language}-u-ca-buddhist`, language] as const),
    ];
    const byLanguage = new Map(languages.map((language) => [language, read(language)]));
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1, 0, 1) / DAY, max: Date.UTC(9999, 11, 31) / DAY }), (day) => {
        const time = day * DAY;
        for (const [tag, language] of tags)
          expect(formatLongDate(time, tag, byLanguage.get(language)), tag).toBe(
            before(time, tag, byLanguage.get(language)!),
          );
      }),
      { numRuns: 150 },
    );
  });
});
