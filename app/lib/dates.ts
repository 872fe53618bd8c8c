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

/**
 * "2024-01-05" → "January 5, 2024" (en), "5 tháng 1, 2024" (vi), "2024年1月5日" (ja): the language's own long
 * date. Unparseable input yields undefined rather than "Invalid Date".
 */
export function formatPublishedDate(value: string | null | undefined, lang = "en"): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  return longDate(lang).format(time);
}

/** The ISO form for machines (`<time dateTime>`, structured data). */
export function isoDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
