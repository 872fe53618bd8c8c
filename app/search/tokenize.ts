import { foldWord, plainLatin, withoutMarks } from "./folding";

/**
 * The one tokenizer of the catalogue, for what is indexed and what is searched for alike. SQLite's
 * unicode61 tokenizer splits at spaces and punctuation and drops accents; what it cannot do is done here:
 * words of scripts written without spaces are found with Intl.Segmenter and marked off with U+200B
 * (invisible in snippets), and words that fold to another spelling (禪/禅, dhamma/dharma, Đạo/dao) or
 * Korean words (matched inside, by pairs of syllables) add their folded forms to a hidden column.
 */

/** Runs of scripts written without spaces (punctuation ends a run, so runs are clause-long). */
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]+/gu;
/** A word as unicode61 sees one, with the token characters the catalogue gives it ('L* N* Co M*'). */
export const WORD = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;
const HANGUL = /\p{Script=Hangul}/u;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Controls never reach the index: the snippets use two of them to mark matches. */
// eslint-disable-next-line no-control-regex -- finding controls is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export const WORD_BREAK = "\u200b";

/**
 * Intl.Segmenter takes time that grows faster than its input (see app/blog/reading-time.ts): it gets
 * pieces of this many characters, each starting a few words before the end of the one before.
 */
const SEGMENT_CHARS = 120;
const OVERLAP_WORDS = 3;

let segmenter: Intl.Segmenter | undefined;

/** The words of a run of unspaced script, by the dictionary of Intl.Segmenter. */
export function segmentRun(run: string): string[] {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words: string[] = [];
  let start = 0;
  while (start < run.length) {
    const end = start + SEGMENT_CHARS;
    const piece: { segment: string; index: number }[] = [];
    for (const { segment, index, isWordLike } of segmenter.segment(run.slice(start, end))) {
      if (isWordLike) piece.push({ segment, index });
    }
    if (end >= run.length || piece.length <= OVERLAP_WORDS) {
      words.push(...piece.map((word) => word.segment));
      start = end;
    } else {
      // The words near the cut may be split as they are only because of it: the next piece reads them again.
      const again = piece.splice(piece.length - OVERLAP_WORDS);
      words.push(...piece.map((word) => word.segment));
      start += again[0]!.index;
    }
  }
  return words;
}

/** The text as the catalogue keeps it: controls gone, unspaced runs with U+200B between their words. */
export function spacedText(text: string): string {
  return text
    .normalize("NFC")
    .replace(CONTROLS, " ")
    .replace(UNSPACED_RUN, (run) => segmentRun(run).join(WORD_BREAK));
}

/** The words of a text, in order: the one split shared by indexing and searching. */
export function words(text: string): string[] {
  const found: string[] = [];
  for (const [word] of spacedText(text).matchAll(WORD)) found.push(word);
  return found;
}

/** Pairs of neighbouring syllables: 불교명상 → 불교 교명 명상. */
export function syllablePairs(word: string): string[] {
  const syllables = [...word];
  return syllables.slice(1).map((syllable, index) => syllables[index] + syllable);
}

/**
 * The hidden column: for each word that folds to something unicode61 would not see (禪 → 禅,
 * dhamma → dharma, Đạo → dao), the folded form; for each Korean word of three syllables or more, its pairs.
 */
export function foldedText(text: string): string {
  return foldedOfSpaced(spacedText(text));
}

/** foldedText of a text already through spacedText; `seen` carries the words worked out over several pieces. */
export function foldedOfSpaced(spaced: string, seen = new Map<string, string[]>()): string {
  const extra: string[] = [];
  // An article says the same words again and again: each is worked out once.
  for (const [word] of spaced.matchAll(WORD)) {
    let added = seen.get(word);
    if (!added) {
      added = [];
      const folded = foldWord(word);
      if (folded !== withoutMarks(word)) added.push(folded);
      if (HANGUL.test(word) && [...word].length >= 3) added.push(...syllablePairs(word));
      seen.set(word, added);
    }
    extra.push(...added);
  }
  return extra.join(" ");
}

/** What a search is for: the words of the query, each with the spellings that find it. */
export type QueryWord = { word: string; spellings: string[]; pairs?: string[] };

/** Queries are cut to this many characters and words: a search box holds a few words, not an essay. */
export const MAX_QUERY_CHARS = 200;
export const MAX_QUERY_WORDS = 12;

export function queryWords(query: string): QueryWord[] {
  const result: QueryWord[] = [];
  const seen = new Set<string>();
  for (const word of words(query.slice(0, MAX_QUERY_CHARS))) {
    const plain = plainLatin(word);
    if (seen.has(plain)) continue;
    seen.add(plain);
    // As written (unicode61 drops the accents itself), without marks, and folded: Đạo finds đạo, Đạo and dao.
    const spellings = [...new Set([word.toLowerCase(), plain, foldWord(word), ...withDStroke(plain)])];
    const hangul = HANGUL.test(word) && [...word].length >= 2;
    result.push(hangul ? { word, spellings, pairs: syllablePairs(word) } : { word, spellings });
    if (result.length === MAX_QUERY_WORDS) break;
  }
  return result;
}

/**
 * "dem" also as "đem": unicode61 keeps đ apart from d, so without this a Vietnamese word with đ would be
 * found (through the hidden column) but not marked in its snippet. Words with one or two d only.
 */
function withDStroke(plain: string): string[] {
  const count = plain.split("d").length - 1;
  if (count === 0 || count > 2 || !/^[a-z]+$/.test(plain)) return [];
  const variants = [plain.replace("d", "đ")];
  if (count === 2) variants.push(plain.replace(/d(?=[^d]*$)/, "đ"), plain.replaceAll("d", "đ"));
  return variants;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * An FTS5 MATCH expression for the words: every word (strict) or any word, as a prefix too unless
 * `prefixes` is false (loose).
 * Each word is quoted, so nothing a reader types is query syntax. Empty when there is nothing to find.
 */
export function matchExpression(query: readonly QueryWord[], { loose = false, prefixes = loose }: { loose?: boolean; prefixes?: boolean } = {}): string {
  const parts = query.map(({ word, spellings, pairs }) => {
    // Words of unspaced scripts and short words would match too much as prefixes.
    const prefix = (prefixes && !UNSPACED.test(word) && [...word].length >= 3) || pairs !== undefined;
    const options = spellings.map((spelling) => quoted(spelling) + (prefix ? " *" : ""));
    if (pairs && pairs.length > 0) options.push(quoted(pairs.join(" ")));
    return options.length > 1 ? `(${options.join(" OR ")})` : options[0]!;
  });
  return parts.join(loose ? " OR " : " AND ");
}
