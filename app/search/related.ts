import { keywordWords, noRate, type ReadRate } from "~/blog/read-next";
import type { CatalogueEntry } from "./catalogue";

/** How many of an article's keyword words a related search asks for, and how many candidates it ranks. */
export const RELATED_WORDS = 12;
export const RELATED_CANDIDATES = 200;

export type RelatedCandidate = { entry: CatalogueEntry; dateIso: string };

/**
 * Read next's rule (app/blog/read-next.ts) over a store's candidates, the same for every store so SQLite and
 * PostgreSQL suggest the same articles: those sharing the most keyword words with `own` first, among equals
 * the more often read to the end (`readRate`, app/counts/reading.server.ts), then the newest, at most `count`.
 */
export function rankRelated(
  own: Set<string>,
  candidates: Iterable<RelatedCandidate>,
  count: number,
  readRate: ReadRate = noRate,
): CatalogueEntry[] {
  const ranked: (RelatedCandidate & { shared: number })[] = [];
  for (const candidate of candidates) {
    let shared = 0;
    for (const word of keywordWords(candidate.entry.keywords ?? [])) if (own.has(word)) shared++;
    if (shared > 0) ranked.push({ ...candidate, shared });
  }
  ranked.sort(
    (a, b) =>
      b.shared - a.shared ||
      readRate(b.entry.slug) - readRate(a.entry.slug) ||
      b.dateIso.localeCompare(a.dateIso) ||
      a.entry.slug.localeCompare(b.entry.slug),
  );
  return ranked.slice(0, count).map((candidate) => candidate.entry);
}

/**
 * `found`, filled up to `count` with the newest articles it does not hold yet (the store gives a few more
 * than needed): the more often read to the end first, the newest among equals.
 */
export function fillWithNewest(
  found: CatalogueEntry[],
  newest: Iterable<CatalogueEntry>,
  count: number,
  readRate: ReadRate = noRate,
): CatalogueEntry[] {
  const seen = new Set(found.map((entry) => entry.slug));
  // Sorting is stable: equals stay newest first.
  for (const entry of [...newest].sort((a, b) => readRate(b.slug) - readRate(a.slug))) {
    if (found.length >= count) break;
    if (!seen.has(entry.slug)) found.push(entry);
  }
  return found;
}
