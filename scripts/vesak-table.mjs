// `node scripts/vesak-table.mjs`: writes app/i18n/vesak-dates.ts, the day of Vesak in Sri Lanka, Myanmar and
// Cambodia for 1990–2100, computed with astronomy-engine (docs/decisions/061). Vesak is the full moon of the
// lunation (new moon to new moon) in which the Sun enters sidereal Taurus (Lahiri ayanamsa), the month
// Vesākha / Kason / Visakha. Its day is the day in the country's time zone twelve hours before the full moon:
// the day whose daylight the full moon follows (every Sri Lankan Vesak poya of 2015–2025 to the day).
// `--check` prints the table instead of writing it (tests/unit/buddhist-year.test.ts compares the two).
import { writeFileSync } from "node:fs";
import { MakeTime, SearchMoonPhase, SearchSunLongitude } from "astronomy-engine";

export const FIRST_YEAR = 1990;
export const LAST_YEAR = 2100;
/** Minutes east of UTC of each country's time today (Colombo, Yangon, Phnom Penh). */
export const ZONES = { si: 330, my: 390, km: 420 };

/** Lahiri's ayanamsa in degrees: 23.853° at J2000, growing 50.29″ a year. */
const ayanamsa = (year) => 23.853 + (year - 2000) * (50.29 / 3600);

/** The full moon of Vesākha of a year, as a UTC instant. */
export function vesakFullMoon(year) {
  const entersTaurus = SearchSunLongitude((30 + ayanamsa(year)) % 360, MakeTime(new Date(Date.UTC(year, 3, 1))), 90);
  const newMoon = SearchMoonPhase(0, entersTaurus.AddDays(-31), 31);
  // The new moon that opens the lunation holding the Sun's entry: the last one before it.
  const opening = SearchMoonPhase(0, newMoon.AddDays(1), 31).ut < entersTaurus.ut ? SearchMoonPhase(0, newMoon.AddDays(1), 31) : newMoon;
  return SearchMoonPhase(180, opening, 31).date;
}

/** Days since 1 January of that year (0-based) of Vesak's day in a zone: the local day twelve hours before the full moon. */
export function localDayOfYear(instant, minutesEast) {
  const local = new Date(instant.getTime() + minutesEast * 60_000 - 12 * 3_600_000);
  return Math.round((Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - Date.UTC(local.getUTCFullYear(), 0, 1)) / 86_400_000);
}

export function table() {
  const days = Object.fromEntries(Object.keys(ZONES).map((country) => [country, []]));
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
    const fullMoon = vesakFullMoon(year);
    for (const [country, minutes] of Object.entries(ZONES)) days[country].push(localDayOfYear(fullMoon, minutes));
  }
  return days;
}

const source = (days) => `// Written by scripts/vesak-table.mjs from astronomy-engine: do not edit by hand (docs/decisions/061).
/** The first year of the table. */
export const FIRST_VESAK_YEAR = ${FIRST_YEAR};
/** Vesak's day in each country, as days since 1 January (0-based), for ${FIRST_YEAR}–${LAST_YEAR}. */
export const VESAK_DAYS = {
${Object.entries(days).map(([country, list]) => `  ${country}: [${list.join(", ")}],`).join("\n")}
} as const;
`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = source(table());
  if (process.argv.includes("--check")) process.stdout.write(text);
  else writeFileSync(new URL("../app/i18n/vesak-dates.ts", import.meta.url), text);
}
export { source };
