/**
 * The key of an article's row in the full-text index: its day of publication in the high bits, its id in
 * the low 32. FTS5 walks a word's matches in key order, so "the newest matches" are the last keys, found
 * without reading the articles (docs/decisions/040). Articles without a date, and those stored before keys
 * had days, have day 0: their key is their id, and they count as the oldest.
 */
const ID_SPAN = 2 ** 32;
/** Days up to this (the year 4840) keep every key below 2^52, exact in a JavaScript number. */
const LAST_DAY = 2 ** 20 - 1;
const DAY_MS = 86_400_000;

export function textKey(id: number, dateIso: string | null | undefined): number {
  const time = dateIso ? Date.parse(dateIso) : NaN;
  const day = Number.isFinite(time) ? Math.min(LAST_DAY, Math.max(0, Math.floor(time / DAY_MS))) : 0;
  return day * ID_SPAN + (id % ID_SPAN);
}
