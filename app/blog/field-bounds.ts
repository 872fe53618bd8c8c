/**
 * How much of each field of an article the site takes from its source (docs/decisions/041). Applied once,
 * where a reply is read (schema.server.ts), so that the page, its meta tags and JSON-LD, the feed, the
 * sitemap, the catalogue, keyword pages and search all see the same bounded article. Each bound is several
 * times what real articles use; lengths are in UTF-16 code units, as JavaScript measures strings.
 */
export const FIELD_BOUNDS = {
  /** Real titles run 30 to 60 characters; search results show about 60, the longest headlines 150. */
  titleChars: 200,
  /** Real descriptions run 140 to 160 characters (what search results show); a lead of a few sentences fits. */
  descriptionChars: 500,
  /** An ISO date with time, fraction and offset is 29 characters; a written-out date in any language fits. */
  dateChars: 64,
  /** Real articles carry one to five keywords a group. */
  keywordsPerGroup: 20,
  /** Real keywords run up to 45 characters; a long-tail phrase of a dozen words fits. */
  keywordChars: 100,
  /** An id is never shown: a number or a UUID is under 40 characters. */
  idChars: 100,
  /**
   * More than a page ever shows of a body: 256 K characters formatted and 100 K as plain text
   * (markdown-limits.ts), so a body cut here looks the same. A long real article is 30 to 60 K.
   */
  bodyChars: 400_000,
} as const;

const ELLIPSIS = "…";
/** Characters past the cut read to place the last grapheme boundary: a boundary depends on what follows it. */
const LOOKAHEAD = 8;

let graphemes: Intl.Segmenter | undefined;

/**
 * `text` at most `max` code units long: whole when it fits, else cut at the last grapheme boundary that
 * leaves room for an ellipsis, which ends it. Only the head of a long text is read, so the cost does not
 * grow with the text. A single grapheme longer than the bound (a letter with thousands of marks) is cut at
 * a code point.
 */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - ELLIPSIS.length;
  const head = text.slice(0, room + LOOKAHEAD);
  let end = 0;
  for (const { index } of (graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(head)) {
    if (index > room) break;
    end = index;
  }
  if (end === 0) end = codePointCut(text, room);
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/**
 * `text` at most `max` code units long, cut without a mark where it would split a surrogate pair: for what
 * is not read as a sentence (a body, which says itself that it was shortened; an id).
 */
export function boundedChars(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, codePointCut(text, max));
}

/** `at`, or one before it where `at` would split a surrogate pair. */
export function codePointCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
