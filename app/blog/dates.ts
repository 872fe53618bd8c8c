import { formatLongDate } from "~/i18n/long-date";
import type { Translations } from "~/i18n/messages";

/** The years a publication date may have: beyond them ISO 8601 needs a sign, and Intl prints year 0 as 1. */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/**
 * The time of a date string, or undefined when it does not parse or falls outside years 1 to 9999:
 * `-271821-04-20` parses (to the earliest time JavaScript has), but no article was written then, and
 * printing it gives nonsense ("April 20, 271822", and `-271821-…` in ISO form).
 */
export function dateTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  const year = new Date(time).getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR ? time : undefined;
}

/**
 * "2024-01-05" → "January 5, 2024" (en), "5 tháng 1, 2024" (vi), "2024年1月5日" (ja): the language's own long
 * date, with the patterns its translations give where ICU's are wrong (app/i18n/long-date.ts). A date that is
 * no date (dateTime) yields undefined rather than "Invalid Date" or a wrong year.
 */
export function formatPublishedDate(
  value: string | null | undefined,
  lang = "en",
  translations?: Translations,
): string | undefined {
  const time = dateTime(value);
  return time === undefined ? undefined : formatLongDate(time, lang, translations);
}

/** The ISO form for machines (`<time dateTime>`, structured data, sitemaps). */
export function isoDate(value: string | null | undefined): string | undefined {
  const time = dateTime(value);
  return time === undefined ? undefined : new Date(time).toISOString();
}
