/**
 * A keyword's address: lower case, words joined by hyphens, letters of any script kept, so that
 * "Zen Retreat" and "zen retreat" are one page, /keywords/zen-retreat, and "Thiền định" is /keywords/thiền-định.
 */
export function keywordKey(keyword: string): string {
  return keyword
    .normalize("NFC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean)
    .join("-")
    .slice(0, 100);
}

export function keywordPath(keyword: string): string {
  return `/keywords/${encodeURIComponent(keywordKey(keyword))}`;
}
