import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buddhistEraOf, vesakYear } from "~/i18n/buddhist-year";
import { formatLongDate } from "~/i18n/long-date";
import { FIRST_VESAK_YEAR, VESAK_DAYS } from "~/i18n/vesak-dates";
import { source, table } from "../../scripts/vesak-table.mjs";

// The Buddhist era as Sri Lanka, Myanmar and Cambodia count it: one more than Thailand's from Vesak day
// (docs/decisions/061), Vesak's day computed with astronomy-engine.

const DAY = 86_400_000;
const vesakOf = (country: keyof typeof VESAK_DAYS, year: number) => Date.UTC(year, 0, 1) + VESAK_DAYS[country][year - FIRST_VESAK_YEAR]! * DAY;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const yearIn = (lang: string, year: number) => new Intl.NumberFormat(lang, { useGrouping: false }).format(year);

/** Published dates: Sri Lanka's Vesak full moon poya, Myanmar's full moon of Kason, Cambodia's Visak Bochea. */
const PUBLISHED = {
  si: ["2015-05-03", "2016-05-21", "2017-05-10", "2018-04-29", "2019-05-18", "2020-05-07", "2021-05-26", "2022-05-15", "2023-05-05", "2024-05-23", "2025-05-12"],
  my: ["2019-05-18", "2020-05-06", "2021-05-26", "2022-05-15", "2023-05-04", "2024-05-22", "2025-05-11"],
  km: ["2019-05-18", "2020-05-06", "2021-05-26", "2022-05-15", "2023-05-04", "2024-05-22", "2025-05-11"],
} as const;

describe("Vesak's day", () => {
  it("is the table astronomy-engine gives today (scripts/vesak-table.mjs)", () => {
    expect(readFileSync("app/i18n/vesak-dates.ts", "utf8")).toBe(source(table()));
  });

  it("falls within a day of every published date (a country may keep the day before the full moon)", () => {
    for (const [country, dates] of Object.entries(PUBLISHED) as [keyof typeof PUBLISHED, readonly string[]][]) {
      for (const date of dates) {
        const computed = vesakOf(country, Number(date.slice(0, 4)));
        expect(Math.abs(computed - Date.parse(date)) / DAY, `${country} ${date}: ${iso(computed)}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("is a full moon between late April and early June in every year of the table", () => {
    for (const country of ["si", "my", "km"] as const) {
      for (let year = FIRST_VESAK_YEAR; year < FIRST_VESAK_YEAR + VESAK_DAYS[country].length; year += 1) {
        const day = iso(vesakOf(country, year)).slice(5);
        expect(day >= "04-17" && day <= "06-14", `${country} ${year}: ${day}`).toBe(true);
      }
    }
  });
});

describe("the year of the Buddhist era", () => {
  it("turns at Vesak in Sinhala, Burmese and Khmer: both sides of the turn, 2000–2040", () => {
    for (const lang of ["si-u-ca-buddhist", "my-u-ca-buddhist", "km-u-ca-buddhist"]) {
      const country = lang.slice(0, 2) as keyof typeof VESAK_DAYS;
      for (let year = 2000; year <= 2040; year += 1) {
        const vesak = vesakOf(country, year);
        expect(vesakYear(vesak - DAY, lang), `${lang}, the day before Vesak ${year}`).toBe(year + 543);
        expect(vesakYear(vesak, lang), `${lang}, Vesak ${year}`).toBe(year + 544);
        expect(formatLongDate(vesak - DAY, lang)).toContain(yearIn(lang, year + 543));
        expect(formatLongDate(vesak, lang)).toContain(yearIn(lang, year + 544));
      }
    }
  });

  it("writes 2568 for 1 June 2024 on a Sinhala, Burmese or Khmer site, in its digits, and Thai dates as before", () => {
    const june = Date.UTC(2024, 5, 1);
    for (const lang of ["si-u-ca-buddhist", "my-u-ca-buddhist", "km-u-ca-buddhist", "km-KH-u-ca-buddhist-nu-khmr"]) {
      expect(formatLongDate(june, lang)).toContain(yearIn(lang, 2568));
    }
    expect(formatLongDate(june, "km-KH-u-ca-buddhist-nu-khmr")).toContain("២៥៦៨");
    expect(formatLongDate(june, "th")).toBe(new Intl.DateTimeFormat("th", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(june));
    expect(formatLongDate(june, "th")).toContain("2567");
    expect(formatLongDate(Date.UTC(2024, 0, 1), "th")).toContain("2567");
  });

  it("is not written as the Buddha's era in Tibetan, Dzongkha, Mongolian and Nepali: their dates are Gregorian", () => {
    const june = Date.UTC(2024, 5, 1);
    for (const language of ["bo", "dz", "mn", "ne"]) {
      expect(buddhistEraOf(language)).toBe("not-counted");
      const gregorian = new Intl.DateTimeFormat(`${language}-u-ca-buddhist`, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC", calendar: "gregory" }).format(june);
      expect(formatLongDate(june, `${language}-u-ca-buddhist`)).toBe(gregorian);
      expect(formatLongDate(june, `${language}-u-ca-buddhist`)).not.toContain(yearIn(language, 2567));
    }
  });

  it("of any date is the Common Era's plus 543 or 544, never goes back, and turns once a year (generated dates)", () => {
    fc.assert(
      fc.property(fc.constantFrom("si", "my", "km"), fc.integer({ min: Date.UTC(1985, 0, 1) / DAY, max: Date.UTC(2105, 11, 30) / DAY }), (lang, day) => {
        const time = day * DAY;
        const year = new Date(time).getUTCFullYear();
        const era = vesakYear(time, lang);
        expect([year + 543, year + 544]).toContain(era);
        const next = vesakYear(time + DAY, lang);
        expect(next - era).toBeGreaterThanOrEqual(0);
        expect(next - era).toBeLessThanOrEqual(1);
        // Within one Gregorian year it turns at most once: 1 January is +543, 31 December is +544.
        expect(vesakYear(Date.UTC(year, 0, 1), lang)).toBe(year + 543);
        expect(vesakYear(Date.UTC(year, 11, 31), lang)).toBe(year + 544);
      }),
      { numRuns: 3000 },
    );
  });
});
