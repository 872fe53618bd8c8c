/** How fast an adult reads prose on a screen, in words a minute. */
export const WORDS_PER_MINUTE = 230;

/**
 * Runs of scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese),
 * with the Japanese length mark and the CJK and full-width punctuation between them: a paragraph is one
 * run, not one per clause (each call to the segmenter has a cost of its own).
 */
const UNSPACED_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3000-\u303f\uff00-\uffef]+/gu;

/**
 * A Tibetan or Dzongkha syllable: letters, stacked letters, vowel signs and digits, between tshegs (་), shads
 * (།) or spaces. These scripts mark syllables, not words, and put spaces between phrases only; ICU has no
 * dictionary for them (Intl.Segmenter splits them at the tsheg alone).
 */
// eslint-disable-next-line no-misleading-character-class -- ranges of Tibetan code points, its marks among them
const TIBETAN_SYLLABLE = /[\u0f00\u0f20-\u0f33\u0f40-\u0f6c\u0f71-\u0f87\u0f8d-\u0fbc]+/g;

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
 * The words of a text, by script (docs/decisions/046): between spaces for most scripts, by dictionary for
 * those written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese), where a character count
 * would say a Chinese article takes twice as long as it does, and by syllable in Tibetan and Dzongkha,
 * each syllable read as a word.
 */
export function countWords(text: string): number {
  let words = 0;
  const spaced = text
    .replace(UNSPACED_RUN, (run) => {
      words += unspacedWords(run);
      return " ";
    })
    .replace(TIBETAN_SYLLABLE, () => {
      words += 1;
      return " ";
    });
  return words + spacedWords(spaced);
}

/** The words of a text between spaces alone, with no dictionary: cheap, and a run of unspaced script is one word. */
export function spacedWords(text: string): number {
  let words = 0;
  for (const token of text.split(/\s+/)) if (hasLetterOrDigit.test(token)) words++;
  return words;
}

/**
 * The prose of a markdown body: link and image addresses, HTML tags and list numbers are not read.
 * Plain scans that pass each character a bounded number of times: the regular expressions they replace
 * (`\]\([^)]*\)`, `<[^>\n]*>`, `^\s*\d+[.)]\s`) went back over the rest of the text at each failed
 * start, minutes for a hostile body of a few hundred kilobytes (docs/decisions/029).
 */
export function proseOf(markdown: string): string {
  return withoutListNumbers(withoutTags(withoutLinkAddresses(markdown)));
}

/** `](address)` becomes `] `. */
function withoutLinkAddresses(text: string): string {
  let prose = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("](", from);
    if (open === -1) break;
    const close = text.indexOf(")", open + 2);
    // No ")" after this "](" means none after any later one either.
    if (close === -1) break;
    prose += `${text.slice(from, open)}] `;
    from = close + 1;
  }
  return prose + text.slice(from);
}

/** `<tag …>` within a line becomes a space. */
function withoutTags(text: string): string {
  let prose = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("<", from);
    if (open === -1) break;
    let end = open + 1;
    while (end < text.length && text[end] !== ">" && text[end] !== "\n") end++;
    if (text[end] === ">") {
      prose += `${text.slice(from, open)} `;
      from = end + 1;
    } else {
      // No tag can start between here and the end of the line: each "<" of it would stop there too.
      prose += text.slice(from, end);
      from = end;
      if (end >= text.length) break;
    }
  }
  return prose + text.slice(from);
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** A number and its `.` or `)` starting a line (an ordered list's marker) becomes a space. */
function withoutListNumbers(text: string): string {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    let at = 0;
    while (line[at] === " " || line[at] === "\t") at++;
    const digits = at;
    while (isDigit(line.charCodeAt(at))) at++;
    // Followed by a space, or by the end of a line that is not the last.
    const after = line[at + 1] ?? (index < lines.length - 1 ? "\n" : "");
    if (at > digits && (line[at] === "." || line[at] === ")") && /\s/.test(after)) {
      lines[index] = ` ${line.slice(at + 1)}`;
    }
  }
  return lines.join("\n");
}

/** The words of a markdown body's prose (what readingMinutes counts). */
export function markdownWords(markdown: string): number {
  return countWords(proseOf(markdown));
}

/** Minutes to read a count of words at WORDS_PER_MINUTE, rounded up; at least one. */
export function minutesFor(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

/** Minutes to read a markdown body at WORDS_PER_MINUTE, rounded up; at least one. */
export function readingMinutes(markdown: string): number {
  return minutesFor(markdownWords(markdown));
}

/** "PT5M": the ISO 8601 duration schema.org's timeRequired takes. */
export function readingDuration(minutes: number): string {
  return `PT${minutes}M`;
}
