import { formatMessage, type Catalog } from "./messages";
import { buddhistEraOf, vesakYear } from "./buddhist-year";
import { patternOf } from "./patterns";

/**
 * The long date of a language ("January 5, 2024", "၂၀၂၄ ဇန်နဝါရီ ၅", "སྤྱི་ལོ་༢༠༢༤ ཟླ་དངཔ་ ཚེས་ ༥"), in
 * the calendar and digits of its tag, by Intl.DateTimeFormat; where ICU's pattern for the tag's calendar
 * is known wrong, by the catalog's (app/i18n/patterns.ts) filled with ICU's own parts. Always in UTC:
 * a date-only string means UTC midnight, and the day written is the day shown, on server and browser.
 */

const OPTIONS = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;

type Formats = { own: Intl.DateTimeFormat; gregorian: Intl.DateTimeFormat; calendar: string };
const formats = new Map<string, Formats>();

function formatsOf(lang: string): Formats {
  let found = formats.get(lang);
  if (!found) {
    const own = new Intl.DateTimeFormat(lang, OPTIONS);
    // The Gregorian long date is right in every language with a catalog: its month names (the forms used
    // with a day, not Dzongkha's doubled stand-alone ones) and its digits serve the other calendars' patterns.
    found = { own, gregorian: new Intl.DateTimeFormat(lang, { ...OPTIONS, calendar: "gregory" }), calendar: own.resolvedOptions().calendar };
    formats.set(lang, found);
  }
  return found;
}

const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? "";

export function formatLongDate(time: number, lang: string, catalog: Catalog = {}): string {
  const { own, gregorian, calendar } = formatsOf(lang);
  if (calendar !== "buddhist") return own.format(time);
  // The era as the language's country counts it (app/i18n/buddhist-year.ts): none, or from Vesak.
  const era = buddhistEraOf(lang);
  if (era === "not-counted") return gregorian.format(time);
  const parts = own.formatToParts(time);
  const year = era === "from-vesak" ? yearFormatOf(lang).format(vesakYear(time, lang)) : part(parts, "year");
  const pattern = patternOf(catalog, "date.buddhist");
  if (!pattern) return parts.map((found) => (found.type === "year" ? year : found.value)).join("");
  const days = gregorian.formatToParts(time);
  return formatMessage(pattern, { year, month: part(days, "month"), day: part(days, "day") });
}

const yearFormats = new Map<string, Intl.NumberFormat>();
/** A year in the tag's digits, ungrouped, as ICU writes the year of a date. */
function yearFormatOf(lang: string): Intl.NumberFormat {
  let found = yearFormats.get(lang);
  if (!found) yearFormats.set(lang, (found = new Intl.NumberFormat(lang, { useGrouping: false })));
  return found;
}
