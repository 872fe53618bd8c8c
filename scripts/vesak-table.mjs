// `node scripts/vesak-table.mjs` writes app/i18n/vesak-dates.ts: for 1990–2100, the day of the full moon of
// Vesākha as Sri Lanka (Vesak poya), Cambodia (Visak Bochea) and Nepal (Buddha Jayanti) keep it, the days on
// which their Buddhist year turns (docs/decisions/061). `--check` prints the module instead of writing it;
// tests/unit/i18n/buddhist-era.test.ts compares the two.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Body, MoonPhase, Observer, SearchMoonPhase, SearchRiseSet, SearchSunLongitude } from "astronomy-engine";

export const FIRST_YEAR = 1990;
export const LAST_YEAR = 2100;

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Lahiri's ayanamsa (degrees): 23.857° at J2000, growing 50.29″ a year. */
const ayanamsa = (time) => 23.857 + ((time - Date.UTC(2000, 0, 1, 12)) / (365.25 * DAY)) * (50.29 / 3600);

/**
 * The full moon of Vesākha, as an instant: the full moon of the lunation (new moon to new moon) in which the
 * Sun enters sidereal Taurus, as South Asian calendars name their months. A lunation without the Sun's entry
 * into a sign is the leap month (Sri Lanka's Adhi Vesak of 2010), so Vesākha is the one after it.
 */
export function vesakhaFullMoon(year) {
  const entry = SearchSunLongitude(
    30 + ayanamsa(Date.UTC(year, 4, 14)),
    new Date(Date.UTC(year, 3, 20)),
    60,
  ).date.getTime();
  let newMoon = SearchMoonPhase(0, new Date(entry - 31 * DAY), 32).date.getTime();
  for (;;) {
    const next = SearchMoonPhase(0, new Date(newMoon + DAY), 32).date.getTime();
    if (next > entry) break;
    newMoon = next;
  }
  return SearchMoonPhase(180, new Date(newMoon), 32).date.getTime();
}

/** Whether the Moon is in the fifteenth tithi at an instant: 168° to 180° east of the Sun, the full moon's day. */
const inPurnima = (time) => {
  const elongation = MoonPhase(new Date(time));
  return elongation >= 168 && elongation < 180;
};

/** The local day (as a UTC midnight) in a zone `minutes` east of UTC of an instant. */
const localDay = (time, minutes) => Math.floor((time + minutes * 60_000) / DAY) * DAY;

/**
 * Sri Lanka's poya (Sri Lanka time, UTC+5:30): the day at whose 6 p.m. the full moon's tithi runs; if no
 * evening has it, the day of the full moon. It gives 295 of the 297 poya days of 2003–2026 the government
 * published, every Vesak and Adhi poya among them; the two others began within half an hour of 6 p.m.
 */
export function sriLankaPoya(fullMoon) {
  const fullMoonDay = localDay(fullMoon, 330);
  for (let day = fullMoonDay - DAY; day <= fullMoonDay; day += DAY)
    if (inPurnima(day + 18 * HOUR - 330 * 60_000)) return day;
  return fullMoonDay;
}

const kathmandu = new Observer(27.7172, 85.324, 1400);

/**
 * Nepal's Purnima (Nepal time, UTC+5:45): the day of the last sunrise before the full moon, the day whose
 * sunrise the full moon's tithi holds, or, where it holds none, the day it falls in from sunrise to sunrise.
 */
export function nepalPurnima(fullMoon) {
  for (let day = localDay(fullMoon, 345); ; day -= DAY) {
    const sunrise = SearchRiseSet(Body.Sun, kathmandu, +1, new Date(day - 345 * 60_000), 1).date.getTime();
    if (sunrise < fullMoon) return day;
  }
}

// Cambodia's Chhankitek calendar is arithmetic (the Suriyayatra's year of 292,207/800 days): the year's kind
// by Roath Kim Soeun's method, for a Buddhist-era year counted as Cambodia counts it after Visak Bochea.
const aharkun = (be) => Math.floor((be * 292207 + 499) / 800) + 4;
const kromthupul = (be) => 800 - ((be * 292207 + 499) % 800);
const avoman = (be) => (aharkun(be) * 11 + 25) % 692;
const bodithey = (be) => (Math.floor((aharkun(be) * 11 + 25) / 692) + aharkun(be) + 29) % 30;
function hasLeapMonth(be) {
  const [now, next] = [bodithey(be), bodithey(be + 1)];
  if (now === 25 && next === 5) return false;
  return (now === 24 && next === 6) || now >= 25 || now < 6;
}
function hasLeapDayByCount(be) {
  const count = avoman(be);
  if (count === 0 && avoman(be - 1) === 137) return true;
  if (kromthupul(be) <= 207) return count < 127;
  if (count === 137 && avoman(be + 1) === 0) return false;
  return count < 138;
}
/** 384 days (a second Asath), 355 (a 30-day Jesth) or 354; a leap day due in a leap-month year waits a year. */
function khmerYearKind(be) {
  if (hasLeapMonth(be)) return "month";
  if (hasLeapDayByCount(be)) return "day";
  for (let earlier = be - 1; hasLeapMonth(earlier); earlier -= 1) if (hasLeapDayByCount(earlier)) return "day";
  return "common";
}

/**
 * Cambodia's Visak Bochea of each year to `lastYear`: 15 Keit of Pisak, the sixth month, counted month by
 * month from 1 Keit of Bos on 1 January 1900 (cam-cc.org's epoch). Months have 29 and 30 days in turn from
 * Mikasar; Jesth and Asath of Gregorian year y take the kind of Buddhist-era year y + 544.
 */
export function khmerVisakBocheas(lastYear) {
  const days = new Map();
  let start = Date.UTC(1900, 0, 1);
  for (let month = 1; new Date(start).getUTCFullYear() <= lastYear; month = (month + 1) % 12) {
    const year = new Date(start).getUTCFullYear();
    const kind = khmerYearKind(year + 544);
    if (month === 5) days.set(year, start + 14 * DAY);
    start +=
      (month === 6 && kind === "day" ? 30 : month === 7 && kind === "month" ? 60 : month % 2 === 0 ? 29 : 30) * DAY;
  }
  return days;
}

/** A day (UTC midnight) as month × 100 + day: 523 for 23 May. */
const monthDay = (day) => (new Date(day).getUTCMonth() + 1) * 100 + new Date(day).getUTCDate();

export function vesakTable() {
  const table = { si: [], km: [], ne: [] };
  const visakBocheas = khmerVisakBocheas(LAST_YEAR);
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
    const fullMoon = vesakhaFullMoon(year);
    table.si.push(monthDay(sriLankaPoya(fullMoon)));
    table.km.push(monthDay(visakBocheas.get(year)));
    table.ne.push(monthDay(nepalPurnima(fullMoon)));
  }
  return table;
}

/** The middle day of a list: where a year outside the table is taken to turn. */
const median = (days) => [...days].sort((a, b) => a - b)[Math.floor(days.length / 2)];

export function moduleSource(table) {
  const rows = (build) =>
    Object.entries(table)
      .map(([language, days]) => `  ${language}: ${build(days)},`)
      .join("\n");
  return `// Written by scripts/vesak-table.mjs with astronomy-engine: do not edit (docs/decisions/061).

export const FIRST_YEAR = ${FIRST_YEAR};
export const LAST_YEAR = ${LAST_YEAR};

/**
 * The full moon of Vesākha of each year from FIRST_YEAR, as month × 100 + day in the country's time: Sri
 * Lanka's Vesak poya (si), Cambodia's Visak Bochea (km), Nepal's Buddha Jayanti (ne). One row a language
 * (the formatter would give each day a line of its own).
 */
// prettier-ignore
export const VESAK: Record<"si" | "km" | "ne", readonly number[]> = {
${rows((days) => `[${days.join(", ")}]`)}
};

/** Outside the table's years, the middle day of its own. */
export const USUAL_VESAK: Record<"si" | "km" | "ne", number> = {
${rows(median)}
};
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = moduleSource(vesakTable());
  if (process.argv.includes("--check")) process.stdout.write(text);
  else writeFileSync(new URL("../app/i18n/vesak-dates.ts", import.meta.url), text);
}
