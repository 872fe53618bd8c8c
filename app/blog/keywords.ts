/** Comma-separated keywords as chips: split, trimmed, empties dropped, repeats (any case) removed. */
export function splitKeywords(value: string | null | undefined): string[] {
  if (!value) return [];
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const part of value.split(",")) {
    const keyword = part.trim();
    const key = keyword.toLowerCase();
    if (keyword && !seen.has(key)) {
      seen.add(key);
      keywords.push(keyword);
    }
  }
  return keywords;
}
