/** How many articles the end of an article suggests. */
export const READ_NEXT_COUNT = 3;

/** How often an article is read to the end, 0 to 1 (app/counts/reading.server.ts); the same for all without counts. */
export type ReadRate = (slug: string) => number;
export const noRate: ReadRate = () => 0;

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
    let shared = 0;
    if (own.size > 0) for (const word of keywordWords(entry.keywords ?? [])) if (own.has(word)) shared++;
    scored.push({ entry, shared, rate: readRate(entry.slug), order });
  }
  return scored
    .sort((a, b) => b.shared - a.shared || b.rate - a.rate || a.order - b.order)
    .slice(0, count)
    .map(({ entry }) => entry);
}
