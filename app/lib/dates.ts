const longDate = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  // Date-only strings mean UTC midnight: formatting in UTC prints the same day on server and browser.
  timeZone: "UTC",
});

/** "2024-01-05" → "January 5, 2024". Unparseable input yields undefined rather than "Invalid Date". */
export function formatPublishedDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  return longDate.format(time);
}

/** The ISO form for machines (`<time dateTime>`, structured data). */
export function isoDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
