import { FIRST_YEAR, USUAL_VESAK, VESAK } from "./vesak-dates";

// ICU's Buddhist year is Thailand's; the other countries number or turn theirs otherwise (docs/decisions/061).

const DAY = 86_400_000;

/** The UTC midnight of a day (month from 0); unlike Date.UTC, years 0–99 are themselves. */
const utc = (year: number, month: number, day: number) => new Date(0).setUTCFullYear(year, month, day);

/** A day of a year from a table of month × 100 + day, the table's usual day outside its years. */
function tableDay(days: readonly number[], usual: number, year: number): number {
  const day = days[year - FIRST_YEAR] ?? usual;
  return utc(year, Math.floor(day / 100) - 1, day % 100);
}

/**
 * Myanmar's New Year's Day: the day after the atat time, when the Myanmar year begins, a solar year of
 * 365.2587565 days after the last from Julian date 1954168.050623, Myanmar Era 0 (Yan Naing Aye's constants
 * for the calendar the Myanmar Calendar Advisory Board publishes). 2440588 is 1 January 1970's day number.
 */
function myanmarNewYear(year: number): number {
  const atat = (1577917828 / 4320000) * (year - 638) + 1954168.050623;
  return (Math.ceil(atat + 0.5) - 2440588) * DAY;
}

/** Per language: the year's number before its turn in a Gregorian year (Common Era plus), and the turn's day. */
const TURNS: Record<string, { before: number; turn: (year: number) => number }> = {
  // Sri Lanka: plus 544 from the Vesak full moon poya.
  si: { before: 543, turn: (year) => tableDay(VESAK.si, USUAL_VESAK.si, year) },
  // Cambodia: plus 544 from 1 Roach of Pisak, the day after Visak Bochea.
  km: { before: 543, turn: (year) => tableDay(VESAK.km, USUAL_VESAK.km, year) + DAY },
  // Nepal: the Buddha Jayanti of Baisakh's full moon is numbered plus 544.
  ne: { before: 543, turn: (year) => tableDay(VESAK.ne, USUAL_VESAK.ne, year) },
  // Myanmar: the Sasana year is the Myanmar year plus 1182, turning with it at the New Year.
  my: { before: 543, turn: myanmarNewYear },
  // Laos: plus 543 from the Lao New Year, 16 April (ວັນສັງຂານຂຶ້ນ), plus 542 before it.
  lo: { before: 542, turn: (year) => utc(year, 3, 16) },
};

/** Languages whose traditions count the Buddha's years otherwise: their sites write the Gregorian date. */
const GREGORIAN = new Set(["bo", "dz", "mn"]);

/**
 * The year of the Buddhist era a site in `language` writes on the day of `time` (its UTC date): a number,
 * "gregorian" where the tradition does not count this era, or undefined where ICU's Buddhist year is the
 * country's own (Thai, and every language without a rule here).
 */
export function buddhistEraYear(language: string, time: number): number | "gregorian" | undefined {
  if (GREGORIAN.has(language)) return "gregorian";
  const rule = TURNS[language];
  if (!rule) return undefined;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  const day = utc(year, date.getUTCMonth(), date.getUTCDate());
  return year + rule.before + (day >= rule.turn(year) ? 1 : 0);
}
