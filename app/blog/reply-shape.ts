/**
 * What a backend reply's JSON may ask JSON.parse to build (docs/decisions/041). Its time grows with the
 * number of values, the variety of their keys and with nesting far more than with bytes: 2 MB of one
 * string parses in about 10 ms, 2 MB of empty objects or of one object with 150,000 keys in 150 to 250 ms,
 * 10,000 objects of keys in random orders in 60 to 180 ms, a million nested arrays in 900 ms. One pass over
 * the text counts them before anything is parsed: a reply past the limits is refused, and one with more
 * values than an article or a page of the list needs is read in the worker thread, off the thread that
 * answers requests.
 */
export const REPLY_SHAPE_LIMITS = {
  /** Objects and arrays open at once: an article needs 1, a list page 3. */
  maxDepth: 16,
  /** Objects, arrays and separated values in all: 10 bytes each in a 2 MB reply. */
  maxValues: 200_000,
  /** From this many values on, a reply is parsed in the worker: an article needs about 12, a page of ten entries 70. */
  inWorkerFrom: 2_000,
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

export type ReplyShape = {
  /** Objects, arrays and separated values counted, up to one past the limit. */
  values: number;
  /** Why the site does not parse it at all, when it does not. */
  problem?: string;
};

/**
 * The shape of `text` as JSON.parse would build it. Counts outside strings only; a string is skipped with
 * indexOf, so the pass costs a few milliseconds for 2 MB. Text that is not JSON at all passes here and fails
 * in JSON.parse, as before.
 */
export function measureReply(
  text: string,
  limits: Pick<typeof REPLY_SHAPE_LIMITS, "maxDepth" | "maxValues"> = REPLY_SHAPE_LIMITS,
): ReplyShape {
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
      if (depth > limits.maxDepth) return { values, problem: `nested more than ${limits.maxDepth} deep` };
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      values += 1;
    } else {
      continue;
    }
    if (values > limits.maxValues) return { values, problem: `more than ${limits.maxValues} values` };
  }
  return { values };
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
