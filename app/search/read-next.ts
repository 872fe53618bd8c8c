/**
 * Read next, the articles an article's end suggests, in one place: the rule (shared keyword words first;
 * among equals the more often read to the end, by the site's counts, then the newest), over a newest-first
 * list (pickReadNext) or over a catalogue store's candidates (rankRelated, fillWithNewest), so that the list,
 * SQLite and PostgreSQL suggest alike. read-next.server.ts chooses which, for a request.
 */
import { noRate, type ReadRate } from "~/counts/read-rate";
import type { CatalogueEntry } from "./catalogue";

/** How many articles the end of an article suggests. */
export const READ_NEXT_COUNT = 3;

/**
 * Words too common to say two articles are about the same thing ("how to …", "what is …"). English
 * only, like most keywords; in other languages such words merely add a little to every score alike.
 */
export const COMMON_WORDS = new Set(
  "a an and are as at be by do does for from how in into is it its of on or the to what when where which who why with your you".split(
    " ",
  ),
);

/**
 * The words of an article's keywords, for comparing two articles: "zen retreat" and "zen" share "zen",
 * which whole keywords would miss. Apostrophes go, so "beginner's" and "beginners" are one word.
 */
export function keywordWords(keywords: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const keyword of keywords) {
    for (const word of keyword
      .toLowerCase()
      .replace(/['’]/g, "")
      .split(/[^\p{L}\p{N}]+/u)) {
      if (word && !COMMON_WORDS.has(word)) words.add(word);
    }
  }
  return words;
}

/** How many of an article's keyword words are among `own`: the rule's first measure, in both its forms. */
function sharedWords(own: Set<string>, keywords: readonly string[] | undefined): number {
  let shared = 0;
  if (own.size > 0) for (const word of keywordWords(keywords ?? [])) if (own.has(word)) shared++;
  return shared;
}

/**
 * Up to `count` other articles to read next, from a newest-first list: those whose keywords share the
 * most words with the current article's first; among equals the more often read to the end (`readRate`,
 * 0 to 1: app/counts/reading.server.ts), then the newest (and so the newest of all when the list has no
 * keywords, as the hosted backend's has not, and the site no counts yet). Never the article itself.
 */
export function pickReadNext<Entry extends { slug: string; keywords?: readonly string[] }>(
  current: { slug: string; keywords: readonly string[] },
  newestFirst: readonly Entry[],
  count = READ_NEXT_COUNT,
  readRate: ReadRate = noRate,
): Entry[] {
  const own = keywordWords(current.keywords);
  const seen = new Set([current.slug]);
  const scored: { entry: Entry; shared: number; rate: number; order: number }[] = [];
  for (const [order, entry] of newestFirst.entries()) {
    if (seen.has(entry.slug)) continue;
    seen.add(entry.slug);
    scored.push({ entry, shared: sharedWords(own, entry.keywords), rate: readRate(entry.slug), order });
  }
  return scored
    .sort((a, b) => b.shared - a.shared || b.rate - a.rate || a.order - b.order)
    .slice(0, count)
    .map(({ entry }) => entry);
}

// Over a catalogue store's candidates

/** How many of an article's keyword words a related search asks for, and how many candidates it ranks. */
export const RELATED_WORDS = 12;
export const RELATED_CANDIDATES = 200;

export type RelatedCandidate = { entry: CatalogueEntry; dateIso: string };

/**
 * The same rule over a store's candidates, the same for every store so SQLite and
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
    const shared = sharedWords(own, candidate.entry.keywords);
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
