import { FIRST_VESAK_YEAR, VESAK_DAYS } from "./vesak-dates";

/**
 * The Buddhist era as each country counts it (docs/decisions/061). ICU's Buddhist calendar is Thailand's:
 * the Common Era's year plus 543, from 1 January. Sri Lanka, Myanmar and Cambodia count from the Buddha's
 * passing one year earlier, and turn the year at Vesak: plus 544 from Vesak day, plus 543 before it. Tibetan,
 * Dzongkha, Mongolian and Nepali do not count this era at all.
 */
export type BuddhistEra = "from-1-january" | "from-vesak" | "not-counted";

const FROM_VESAK = new Set(["si", "my", "km"]);
const NOT_COUNTED = new Set(["bo", "dz", "mn", "ne"]);

/** How a language's sites count the Buddhist era, when their tag asks for it (-u-ca-buddhist). */
export function buddhistEraOf(lang: string): BuddhistEra {
  const language = lang.split("-", 1)[0]!.toLowerCase();
  if (FROM_VESAK.has(language)) return "from-vesak";
  return NOT_COUNTED.has(language) ? "not-counted" : "from-1-january";
}

/**
 * The year of the Buddhist era of a date (UTC midnight of the day written) as Sri Lanka, Myanmar or Cambodia
 * count it. Outside the table's years (1990–2100) Vesak is taken as the table's latest-possible day, the
 * year turning no earlier than it can.
 */
export function vesakYear(time: number, lang: string): number {
  const date = new Date(time);
  const year = date.getUTCFullYear();
  const country = lang.split("-", 1)[0]!.toLowerCase() as keyof typeof VESAK_DAYS;
  const days = VESAK_DAYS[country] ?? VESAK_DAYS.si;
  const vesak = days[year - FIRST_VESAK_YEAR] ?? Math.max(...days);
  const dayOfYear = Math.round((Date.UTC(year, date.getUTCMonth(), date.getUTCDate()) - Date.UTC(year, 0, 1)) / 86_400_000);
  return year + (dayOfYear >= vesak ? 544 : 543);
}
