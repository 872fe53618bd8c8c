import myanmarTools from "myanmar-tools";

/**
 * Burmese written in Zawgyi, read as Unicode (docs/decisions/046). Zawgyi is a font encoding that puts
 * Burmese letters on the Unicode block's code points in another order and with other meanings, and much
 * Burmese text online is still written in it. Google's myanmar-tools detects it (a Markov model, the
 * probability that a text is Zawgyi rather than Unicode) and converts it (the rules of ICU's "Zawgyi-my"
 * transform). Converting text that is already Unicode corrupts it (မြန်မာ becomes မွနျမာ), and short
 * Unicode words with stacked Pali consonants score as Zawgyi (ဓမ္မ 0.955, မေတ္တာ 0.9996): text is
 * converted only when it also breaks a rule of Unicode Burmese spelling that Zawgyi breaks all the time.
 */

/** The probability from which myanmar-tools advises converting. */
export const ZAWGYI_PROBABILITY = 0.95;

/** Code points the detector reads: the Myanmar block and its extensions A and B. */
const MYANMAR = /[\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f]/;

/**
 * What the converter works on: runs of Myanmar code points with the space-like characters before and
 * between them (its rules remove some of those), at most 16 in a row, so that a span is at most 17 times
 * as long as its Myanmar characters. Everything else stays as it is, at no cost.
 */
const SPAN =
  /(?:[ \u00a0\u1680\u2000-\u200d\u202f\u205f\u2060\u3000\ufeff]{0,16}[\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f]+)+/g;
/** Spaces a span may take in a row, and so the most each Myanmar character may bring to convert. */
const SPAN_SPACES = 16;

/**
 * The converter's time grows faster than its input on one string (docs/decisions/046): longer spans are
 * converted in pieces of about this many characters, cut at a space followed by neither a space nor a
 * mark, where no rule of the converter reaches across.
 */
const PIECE_CHARS = 1024;

/** Paragraphs (text between blank lines) are judged one by one: a quoted Zawgyi paragraph in a Unicode article. */
const PARAGRAPH_BREAK = /(\n[ \t]*\n)/;

let detector: InstanceType<typeof myanmarTools.ZawgyiDetector> | undefined;
let converter: InstanceType<typeof myanmarTools.ZawgyiConverter> | undefined;

/** True when the text has a code point of the Myanmar blocks. */
export function hasMyanmar(text: string): boolean {
  return MYANMAR.test(text);
}

/** The detector's probability that the text is Zawgyi (-Infinity without Myanmar code points). */
export function zawgyiProbability(text: string): number {
  return (detector ??= new myanmarTools.ZawgyiDetector()).getZawgyiProbability(text);
}

const isConsonant = (code: number) =>
  (code >= 0x1000 && code <= 0x102a) || code === 0x103f || code === 0x104e || (code >= 0x1050 && code <= 0x1055);
const isMark = (code: number) =>
  (code >= 0x102b && code <= 0x1038) || (code >= 0x103a && code <= 0x103e) || (code >= 0x1056 && code <= 0x1059);
const isStandalone = (code: number) => (code >= 0x1040 && code <= 0x104d) || code === 0x104f;
const VIRAMA = 0x1039;

/**
 * True when every syllable of the text's Burmese is spelt as Unicode stores Burmese (Unicode Technical
 * Note 11): a vowel sign or medial only after a consonant, the virama (U+1039) only between two
 * consonants, and no code point Zawgyi uses for its own glyphs (U+105A–U+109F, Mon, Shan and Karen letters
 * in Unicode). Zawgyi text breaks these at nearly every word: its vowel E (ေ) and medial ra come before
 * the consonant, its asat is U+1039 and ends a syllable. Text that breaks none may be Zawgyi only when it
 * is also valid Unicode, and then it is left as it is. One pass, no backtracking.
 */
export function looksLikeUnicodeBurmese(text: string): boolean {
  /** "none": outside a syllable; "base": after a consonant and its marks; "virama": after U+1039. */
  let state: "none" | "base" | "virama" = "none";
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isConsonant(code)) {
      state = "base";
    } else if (code === VIRAMA) {
      if (state !== "base") return false;
      state = "virama";
    } else if (isMark(code)) {
      if (state !== "base") return false;
    } else if (state === "virama") {
      return false;
    } else if (isStandalone(code) || code < 0x1000 || code > 0x109f) {
      state = "none";
    } else {
      return false;
    }
  }
  return state !== "virama";
}

/** True when the text is Burmese in Zawgyi: not spelt as Unicode spells Burmese, and scored as Zawgyi. */
export function isZawgyi(text: string): boolean {
  return hasMyanmar(text) && !looksLikeUnicodeBurmese(text) && zawgyiProbability(text) >= ZAWGYI_PROBABILITY;
}

/** Zawgyi converted to Unicode, the Myanmar spans of the text only, long ones a piece at a time. */
export function convertZawgyi(text: string): string {
  converter ??= new myanmarTools.ZawgyiConverter();
  const convert = converter.zawgyiToUnicode.bind(converter);
  return text.replace(SPAN, (span) => {
    if (span.length <= PIECE_CHARS) return convert(span);
    let converted = "";
    let start = 0;
    while (start < span.length) {
      const end = pieceEnd(span, start);
      converted += convert(span.slice(start, end));
      start = end;
    }
    return converted;
  });
}

function pieceEnd(span: string, start: number): number {
  const end = start + PIECE_CHARS;
  if (end >= span.length) return span.length;
  for (let cut = end; cut > start + PIECE_CHARS / 2; cut--) {
    const next = span.charCodeAt(cut);
    if (span[cut - 1] === " " && next !== 0x20 && !(next >= 0x102b && next <= 0x103e)) return cut;
  }
  // No such space (one word of a thousand letters): cut anyway, between code points of the BMP.
  return end;
}

/**
 * The text with each paragraph that is Zawgyi converted to Unicode: for the fields of an article (after
 * their bounds, docs/decisions/041, so that what this costs is bounded by them) and for search queries.
 * Text without Myanmar code points is returned as it is after one scan, without reaching the detector.
 */
export function unicodeBurmese(text: string): string {
  if (!hasMyanmar(text)) return text;
  if (!PARAGRAPH_BREAK.test(text)) return isZawgyi(text) ? convertZawgyi(text) : text;
  return text
    .split(PARAGRAPH_BREAK)
    .map((part, index) => (index % 2 === 0 && isZawgyi(part) ? convertZawgyi(part) : part))
    .join("");
}

/**
 * For a query: the text read as Zawgyi when it is spelt as valid Unicode yet scores as Zawgyi (a word or
 * two typed with a Zawgyi keyboard can be both), so that a search looks for both readings. Undefined when
 * there is no other reading.
 */
export function zawgyiReading(text: string): string | undefined {
  if (!hasMyanmar(text) || !looksLikeUnicodeBurmese(text) || zawgyiProbability(text) < ZAWGYI_PROBABILITY)
    return undefined;
  const converted = convertZawgyi(text);
  return converted === text ? undefined : converted;
}

/**
 * Characters of a reply converted on the thread that answers requests, at most: a few tens of milliseconds
 * (docs/decisions/046). A reply that may need more is read in the worker thread
 * (app/blog/http-source.server.ts).
 */
export const CONVERT_HERE_UP_TO = 4096;

/**
 * How many characters of a reply's text the converter may be given: none when all its Burmese is spelt as
 * Unicode, else its Myanmar spans as convertZawgyi finds them, with what JSON escapes (`\u1000`) may add
 * to them once parsed: each escaped Myanmar character as much as a span may bring, each escaped space once.
 */
export function myanmarToConvert(text: string): number {
  const escapedMyanmar = text.match(/\\u(?:10[0-9a-f]|a9[ef]|aa[67])[0-9a-f]/gi)?.length ?? 0;
  if (escapedMyanmar === 0 && (!hasMyanmar(text) || looksLikeUnicodeBurmese(text))) return 0;
  const escapedSpaces = text.match(/\\u(?:00a0|1680|20[0-6][0-9a-f]|3000|feff)/gi)?.length ?? 0;
  let spans = 0;
  for (const [span] of text.matchAll(SPAN)) spans += span.length;
  return spans + escapedMyanmar * (SPAN_SPACES + 1) + escapedSpaces;
}
