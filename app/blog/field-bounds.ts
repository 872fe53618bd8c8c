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
 * True when the letter before `at` goes on after it though a grapheme boundary is there (docs/decisions/046):
 * after a zero-width joiner or a mark that follows one (a Sinhala conjunct, ශ්‍|රී), and after a Burmese
 * virama or Khmer coeng, which stack the next consonant under theirs. A cut there shows a broken letter.
 */
export function joinsNext(text: string, at: number): boolean {
  const previous = text.charCodeAt(at - 1);
  if (previous === ZWJ || previous === 0x1039 || previous === 0x17d2) return true;
  return text.charCodeAt(at - 2) === ZWJ && MARK.test(text[at - 1] ?? "");
}

const ZWJ = 0x200d;
const MARK = /^\p{M}$/u;

/**
 * The last place at or before `at` where `text` may be cut without breaking a letter: 0 when every grapheme
 * boundary up to `at` is inside a letter (a text that starts with a lone joiner), undefined when there is no
 * boundary up to `at` at all (the first grapheme is longer).
 */
function letterCut(text: string, at: number): number | undefined {
  const head = text.slice(0, at + LOOKAHEAD);
  let end = 0;
  let boundary = false;
  for (const { index } of (graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(head)) {
    if (index > at) break;
    if (index === 0) continue;
    boundary = true;
    if (!joinsNext(head, index)) end = index;
  }
  return boundary ? end : undefined;
}

/**
 * `text` at most `max` code units long: whole when it fits, else cut at the last grapheme boundary that
 * leaves room for an ellipsis, which ends it, and does not break a letter (joinsNext). Only the head of a
 * long text is read, so the cost does not grow with the text. A single grapheme longer than the bound (a
 * letter with thousands of marks) is cut at a code point.
 */
export function boundedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - ELLIPSIS.length;
  const end = letterCut(text, room) ?? codePointCut(text, room);
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/** `at`, or the last place before it where a cut leaves every letter whole (`at` when none is near). */
export function wholeLetterCut(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const from = Math.max(0, at - 64);
  const end = letterCut(text.slice(from), at - from) ?? 0;
  return end > 0 ? from + end : codePointCut(text, at);
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
