/**
 * What a backend reply's JSON may ask JSON.parse to build (docs/decisions/041). Parsing runs on the thread
 * that answers every request, and its time grows with the number of values and with nesting far more
 * than with bytes: 2 MB of one string parses in about 10 ms, 2 MB of empty objects or of one object with
 * 150,000 keys in 150 to 250 ms, a million nested arrays in 900 ms. The replies the site reads are flat
 * (an article is one object, a list page an object holding an array of entries), so a reply past these
 * bounds is refused before it is parsed, by one pass over its text.
 */
export const REPLY_SHAPE_LIMITS = {
  /** Objects and arrays open at once: an article needs 1, a list page 3. */
  maxDepth: 16,
  /** Objects, arrays and separated values in all: a list page of 2,000 entries needs about 14,000. */
  maxValues: 20_000,
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Why `text` is not a reply the site parses, or undefined when it is within the limits. Counts outside
 * strings only; a string is skipped with indexOf, so the pass costs a few milliseconds for 2 MB. Text that
 * is not JSON at all passes here and fails in JSON.parse, as before.
 */
export function replyShapeProblem(text: string, limits = REPLY_SHAPE_LIMITS): string | undefined {
  let depth = 0;
  let values = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(text, index);
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > limits.maxDepth) return `nested more than ${limits.maxDepth} deep`;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      values += 1;
    } else {
      continue;
    }
    if (values > limits.maxValues) return `more than ${limits.maxValues} values`;
  }
  return undefined;
}

/** The index of the quote that ends the string opened at `start` (or the text's end when none does). */
function stringEnd(text: string, start: number): number {
  let quote = start;
  for (;;) {
    quote = text.indexOf('"', quote + 1);
    if (quote === -1) return text.length;
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
}
