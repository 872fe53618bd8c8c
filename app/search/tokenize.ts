import { unicodeBurmese, zawgyiReading } from "~/i18n/zawgyi.server";
import { foldWord, hasHan, plainLatin, withoutMarks } from "./folding";
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS } from "./query-limits";

export { MAX_QUERY_CHARS, MAX_QUERY_WORDS };

/**
 * The one tokenizer of the catalogue, for what is indexed and what is searched for alike. SQLite's
 * unicode61 tokenizer splits at spaces and punctuation and drops accents; what it cannot do is done here:
 * words of scripts written without spaces are found with Intl.Segmenter and marked off with U+200B
 * (invisible in snippets), and words that fold to another spelling (禪/禅, dhamma/dharma, Đạo/dao,
 * ශ්‍රී/ශ්රී) or Korean words (matched inside, by pairs of syllables) add their folded forms to a hidden
 * column. Tibetan syllables of a query are searched for as a phrase (docs/decisions/046).
 */

/** Runs of scripts written without spaces (punctuation ends a run, so runs are clause-long). */
const UNSPACED_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]+/gu;
/**
 * A word as unicode61 sees one, with the token characters the catalogue gives it ('L* N* Co M*', and the
 * joiners ZWJ and ZWNJ, which hold a Sinhala conjunct together): a run of those with a letter, digit or mark.
 */
export const WORD = /[\u200c\u200d]*[\p{L}\p{N}\p{Co}\p{M}][\p{L}\p{N}\p{Co}\p{M}\u200c\u200d]*/gu;
const HANGUL = /\p{Script=Hangul}/u;
/**
 * Words a query never asks for as a prefix: a word of a script without spaces or a Tibetan syllable is short,
 * and as a prefix would match too much.
 */
const NO_PREFIX =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
const TIBETAN = /\p{Script=Tibetan}/u;
/** Between two syllables of a Tibetan word: the tsheg (and its non-breaking form). */
const TSHEG_ONLY = /^[\u0f0b\u0f0c]+$/;
/** Controls never reach the index: the snippets use two of them to mark matches. */
// eslint-disable-next-line no-control-regex -- finding controls is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/**
 * The end of a piece that the next one continues as one letter: a Burmese virama or Khmer coeng (the next
 * consonant is stacked under this one) or a zero-width joiner. ICU's dictionaries break some words there
 * ("ម៉ាស្ទ័រ" as ម៉ាស្|ទ័|រ), which would show a broken letter at the edge of a snippet.
 */
const JOINS_NEXT = /[\u1039\u17d2\u200d]$/;
const STARTS_WITH_MARK = /^\p{M}/u;
/**
 * Runs of scripts whose dictionaries split a word by what surrounds it: ICU finds សមាធិ alone but splits
 * ធ្វើសមាធិ as ធ្វើស|មា|ធិ, and reads ស្តាប់ធម៌ and ຟັງທຳ as one word. Their letter clusters go to the hidden
 * column too, and a query word of two clusters or more is also asked for as a phrase of its clusters.
 */
const CLUSTERED = /[\p{Script=Khmer}\p{Script=Lao}\p{Script=Myanmar}]/u;
const LETTER_OR_MARK = /[\p{L}\p{N}\p{M}]/u;

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
      // A break inside a letter (a stacked consonant, a mark) is no break: the piece goes on.
      const last = piece.at(-1);
      if (
        last &&
        last.index + last.segment.length === index &&
        (JOINS_NEXT.test(last.segment) || STARTS_WITH_MARK.test(segment))
      )
        last.segment += segment;
      else if (isWordLike) piece.push({ segment, index });
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

let graphemes: Intl.Segmenter | undefined;

/** The letter clusters of a text (grapheme clusters: a consonant with its stacked consonants and marks). */
export function clusters(text: string): string[] {
  graphemes ??= new Intl.Segmenter("und", { granularity: "grapheme" });
  const found: string[] = [];
  for (const { segment } of graphemes.segment(text)) if (LETTER_OR_MARK.test(segment)) found.push(segment);
  return found;
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
 * dhamma → dharma, Đạo → dao, ශ්‍රී → ශ්රී), the folded form; for each Korean word of three syllables or
 * more, its pairs; the letter clusters of Khmer, Lao and Burmese. A Traditional Chinese word folded to Simplified is split into words again, as the
 * Simplified text would be (歷史很長 → 历史 很 长), so that a query in either script finds it.
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
      if (folded !== withoutMarks(word)) added.push(...(hasHan(folded) ? segmentRun(folded) : [folded]));
      if (HANGUL.test(word) && [...word].length >= 3) added.push(...syllablePairs(word));
      // Every word's, so that the clusters of a run's words follow each other as in the text.
      if (CLUSTERED.test(word)) added.push(...clusters(word));
      seen.set(word, added);
    }
    extra.push(...added);
  }
  return extra.join(" ");
}

/** What a search is for: the words of the query, each with the spellings that find it. */
export type QueryWord = { word: string; spellings: string[]; pairs?: string[] };

/**
 * The words of a query, each with the spellings that find it. Burmese typed in Zawgyi is searched for as
 * Unicode, and a chunk that reads as either as both (app/i18n/zawgyi.server.ts); the syllables of a Tibetan
 * word are one phrase. Cut to MAX_QUERY_CHARS characters and MAX_QUERY_WORDS words.
 */
export function queryWords(query: string): QueryWord[] {
  const result: QueryWord[] = [];
  const seen = new Set<string>();
  const add = (found: QueryWord) => {
    const key = plainLatin(found.word);
    if (seen.has(key) || result.length === MAX_QUERY_WORDS) return;
    seen.add(key);
    result.push(found);
  };
  for (const chunk of unicodeBurmese(query.slice(0, MAX_QUERY_CHARS)).split(/\s+/)) {
    const other = zawgyiReading(chunk);
    if (other !== undefined) {
      const readings = [chunk, other]
        .flatMap((reading) => [words(reading), clusters(reading)])
        .filter((found) => found.length > 0);
      if (readings.length > 0) add({ word: chunk, spellings: [...new Set(readings.map((found) => found.join(" ")))] });
      continue;
    }
    for (const group of wordGroups(chunk)) add(group.length === 1 ? queryWord(group[0]!) : phraseWord(group));
  }
  return result;
}

/** The words of a text in order, the syllables of each Tibetan word (joined by tshegs alone) as one group. */
function wordGroups(text: string): string[][] {
  const spaced = spacedText(text);
  const groups: string[][] = [];
  let end = -1;
  for (const found of spaced.matchAll(WORD)) {
    const last = groups.at(-1);
    if (last && TIBETAN.test(found[0]) && TIBETAN.test(last.at(-1)!) && TSHEG_ONLY.test(spaced.slice(end, found.index)))
      last.push(found[0]);
    else groups.push([found[0]]);
    end = found.index + found[0].length;
  }
  return groups;
}

/** A word with its spellings: as written (unicode61 drops the accents itself), without marks, and folded: Đạo finds đạo, Đạo and dao. */
function queryWord(word: string): QueryWord {
  const plain = plainLatin(word);
  const folded = foldWord(word);
  // Simplified Chinese split again into words, as the index splits it: a phrase.
  const foldedSpelling = hasHan(folded) && folded !== plain ? segmentRun(folded).join(" ") : folded;
  const letters = CLUSTERED.test(word) ? clusters(word) : [];
  const spellings = [
    ...new Set([
      word.toLowerCase(),
      plain,
      foldedSpelling,
      ...withDStroke(plain),
      ...(letters.length > 1 ? [letters.join(" ")] : []),
    ]),
  ];
  const hangul = HANGUL.test(word) && [...word].length >= 2;
  return hangul ? { word, spellings, pairs: syllablePairs(word) } : { word, spellings };
}

/** Syllables of one Tibetan word: found next to each other, in order (a phrase), not apart. */
function phraseWord(syllables: string[]): QueryWord {
  return { word: syllables.join("\u0f0b"), spellings: [syllables.map((syllable) => syllable.toLowerCase()).join(" ")] };
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
/**
 * Whether a query word is asked for as a prefix: Korean words always (by their pairs), others only where
 * prefixes are wanted and the word is no word of an unspaced script or short, which would match too much.
 * For SQLite's match expression and PostgreSQL's tsquery and snippets alike.
 */
export function asPrefix({ word, pairs }: QueryWord, prefixes: boolean): boolean {
  return (prefixes && !NO_PREFIX.test(word) && [...word].length >= 3) || pairs !== undefined;
}

export function matchExpression(
  query: readonly QueryWord[],
  { loose = false, prefixes = loose }: { loose?: boolean; prefixes?: boolean } = {},
): string {
  const parts = query.map((queryWord) => {
    const { spellings, pairs } = queryWord;
    const prefix = asPrefix(queryWord, prefixes);
    const options = spellings.map((spelling) => quoted(spelling) + (prefix ? " *" : ""));
    if (pairs && pairs.length > 0) options.push(quoted(pairs.join(" ")));
    return options.length > 1 ? `(${options.join(" OR ")})` : options[0]!;
  });
  return parts.join(loose ? " OR " : " AND ");
}
