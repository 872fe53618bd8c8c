/** How fast an adult reads prose on a screen, in words a minute. */
export const WORDS_PER_MINUTE = 230;

/**
 * Runs of scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese),
 * with the Japanese length mark and the CJK and full-width punctuation between them: a paragraph is one
 * run, not one per clause (each call to the segmenter has a cost of its own).
 */
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3000-\u303f\uff00-\uffef]+/gu;

/**
 * Intl.Segmenter takes time that grows faster than the text (seconds for a long article in one piece),
 * so it gets short pieces; a piece cut inside a word counts that word twice, one in this many characters.
 */
const SEGMENT_CHARS = 120;

const hasLetterOrDigit = /[\p{L}\p{N}]/u;

let segmenter: Intl.Segmenter | undefined;

/** Words in a run of unspaced script, by the dictionary of Intl.Segmenter (word granularity). */
function unspacedWords(run: string): number {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  let words = 0;
  for (let start = 0; start < run.length; start += SEGMENT_CHARS) {
    for (const segment of segmenter.segment(run.slice(start, start + SEGMENT_CHARS))) if (segment.isWordLike) words++;
  }
  return words;
}

/**
 * The words of a text: between spaces for most scripts, and by dictionary for those written without
 * spaces, where a character count would say a Chinese article takes twice as long as it does.
 */
export function countWords(text: string): number {
  let words = 0;
  const spaced = text.replace(UNSPACED_RUN, (run) => {
    words += unspacedWords(run);
    return " ";
  });
  for (const token of spaced.split(/\s+/)) if (hasLetterOrDigit.test(token)) words++;
  return words;
}

/** The prose of a markdown body: link and image addresses, HTML tags and list numbers are not read. */
function proseOf(markdown: string): string {
  return markdown
    .replace(/\]\([^)]*\)/g, "] ")
    .replace(/<[^>\n]*>/g, " ")
    .replace(/^\s*\d+[.)]\s/gm, " ");
}

/** Minutes to read a markdown body at WORDS_PER_MINUTE, rounded up; at least one. */
export function readingMinutes(markdown: string): number {
  return Math.max(1, Math.ceil(countWords(proseOf(markdown)) / WORDS_PER_MINUTE));
}

/** "PT5M": the ISO 8601 duration schema.org's timeRequired takes. */
export function readingDuration(minutes: number): string {
  return `PT${minutes}M`;
}
