import { boundedText, FIELD_BOUNDS } from "./field-bounds";

/**
 * Comma-separated keywords as chips: split, trimmed, empties dropped, each cut to FIELD_BOUNDS.keywordChars,
 * repeats (any case, and those in `seen`, which gains the ones kept) removed, at most `max` of them. The
 * text is read only until `max` are kept, or a few times as many parts were looked at, so a field of
 * thousands of keywords costs what a few dozen do. `read` is applied to each keyword once it is cut, before
 * repeats are looked for (the schema reads Zawgyi as Unicode there).
 */
export function splitKeywords(
  value: string | null | undefined,
  max: number = FIELD_BOUNDS.keywordsPerGroup,
  seen = new Set<string>(),
  read: (keyword: string) => string = (keyword) => keyword,
): string[] {
  if (!value) return [];
  const keywords: string[] = [];
  const partsToRead = max * 10;
  for (let start = 0, parts = 0; start <= value.length && keywords.length < max && parts < partsToRead; parts += 1) {
    const comma = value.indexOf(",", start);
    const end = comma === -1 ? value.length : comma;
    // Cut before trimming: only the head of a huge part is read.
    const cut = boundedText(
      value.slice(start, Math.min(end, start + FIELD_BOUNDS.keywordChars * 2)).trim(),
      FIELD_BOUNDS.keywordChars,
    );
    const keyword = cut && boundedText(read(cut), FIELD_BOUNDS.keywordChars);
    const key = keyword.toLowerCase();
    if (keyword && !seen.has(key)) {
      seen.add(key);
      keywords.push(keyword);
    }
    start = end + 1;
  }
  return keywords;
}
