const longDates = new Map<string, Intl.DateTimeFormat>();

function longDate(lang: string): Intl.DateTimeFormat {
  let format = longDates.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      year: "numeric",
      month: "long",
      day: "numeric",
      // Date-only strings mean UTC midnight: formatting in UTC prints the same day on server and browser.
      timeZone: "UTC",
    });
    longDates.set(lang, format);
  }
  return format;
}

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
 * date. A date that is no date (dateTime) yields undefined rather than "Invalid Date" or a wrong year.
 */
export function formatPublishedDate(value: string | null | undefined, lang = "en"): string | undefined {
  const time = dateTime(value);
  return time === undefined ? undefined : longDate(lang).format(time);
}

/** The ISO form for machines (`<time dateTime>`, structured data, sitemaps). */
export function isoDate(value: string | null | undefined): string | undefined {
  const time = dateTime(value);
  return time === undefined ? undefined : new Date(time).toISOString();
}
