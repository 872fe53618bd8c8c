import { buddhistEraYear } from "./buddhist-era";
import { formatMessage, type Translations } from "./messages";
import { patternOf } from "./patterns";

/**
 * The long date of a language ("January 5, 2024", "၂၀၂၄ ဇန်နဝါရီ ၅", "སྤྱི་ལོ་༢༠༢༤ ཟླ་དངཔ་ ཚེས་ ༥"), in
 * the calendar and digits of its tag, by Intl.DateTimeFormat; where ICU's pattern for the tag's calendar
 * is known wrong, by the translations' (app/i18n/patterns.ts) filled with ICU's own parts; in the Buddhist
 * calendar, with the year as the language's country counts it (app/i18n/buddhist-era.ts). Always in UTC:
 * a date-only string means UTC midnight, and the day written is the day shown, on server and browser.
 */

const OPTIONS = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;

type Formats = {
  own: Intl.DateTimeFormat;
  gregorian: Intl.DateTimeFormat;
  calendar: string;
  language: string;
  years: Intl.NumberFormat;
};
const formats = new Map<string, Formats>();

function formatsOf(lang: string): Formats {
  let found = formats.get(lang);
  if (!found) {
    const own = new Intl.DateTimeFormat(lang, OPTIONS);
    // The Gregorian long date is right in every language with translations: its month names (the forms used
    // with a day, not Dzongkha's doubled stand-alone ones) and its digits serve the other calendars' patterns.
    found = {
      own,
      gregorian: new Intl.DateTimeFormat(lang, { ...OPTIONS, calendar: "gregory" }),
      calendar: own.resolvedOptions().calendar,
      language: new Intl.Locale(lang).language,
      // A year in the tag's digits, ungrouped, as ICU writes a date's year.
      years: new Intl.NumberFormat(lang, { useGrouping: false }),
    };
    formats.set(lang, found);
  }
  return found;
}

const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
  parts.find((found) => found.type === type)?.value ?? "";

export function formatLongDate(time: number, lang: string, translations: Translations = {}): string {
  const { own, gregorian, calendar, language, years } = formatsOf(lang);
  if (calendar !== "buddhist") return own.format(time);
  const era = buddhistEraYear(language, time);
  if (era === "gregorian") return gregorian.format(time);
  const pattern = patternOf(translations, "date.buddhist");
  if (!pattern && era === undefined) return own.format(time);
  const parts = own.formatToParts(time);
  const year = era === undefined ? part(parts, "year") : years.format(era);
  if (!pattern) return parts.map((found) => (found.type === "year" ? year : found.value)).join("");
  const days = gregorian.formatToParts(time);
  return formatMessage(pattern, { year, month: part(days, "month"), day: part(days, "day") });
}
