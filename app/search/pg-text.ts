import { withoutMarks } from "./folding";
import type { QueryWord } from "./tokenize";
import { WORD } from "./tokenize";

/**
 * Text for PostgreSQL's full-text search, built here so that it sees the words app/search/tokenize.ts
 * finds and nothing else (docs/decisions/036): the document is written as a tsvector literal and the
 * query as a tsquery literal, so PostgreSQL's parser and dictionaries never split or change a word.
 * A lexeme is a word as SQLite's unicode61 keeps it: lower case, no marks on Latin letters.
 */

/** PostgreSQL's limits: positions 1–16383, 256 positions a lexeme, lexemes under 2 KB, a tsvector under 1 MB. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;
/** Longer "words" are left out of the index (and so cannot be found): no reader types one. */
const MAX_LEXEME_CHARS = 200;
const MAX_TSVECTOR_BYTES = 900_000;

export const lexeme = (word: string) => withoutMarks(word);

/** The lexemes of a text, in order. */
export function lexemes(text: string): string[] {
  const found: string[] = [];
  for (const [word] of text.matchAll(WORD)) if (word.length <= MAX_LEXEME_CHARS) found.push(lexeme(word));
  return found;
}

const quote = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/** The weights of the columns, as ts_rank's array lists them ({D, C, B, A}): SQLite's bm25 weights 1, 4, 6, 10. */
export const RANK_WEIGHTS = "{0.1,0.4,0.6,1.0}";

export type Weight = "A" | "B" | "C" | "D";

/**
 * A tsvector literal of the columns in order, each with its weight. A position is skipped between columns so
 * that no phrase spans two of them. Past PostgreSQL's limits, positions stay at the last one and further
 * words are left out; bodies are cut to a size well inside them (MAX_BODY_CHARS).
 */
export function tsvectorOf(columns: readonly (readonly [text: string, weight: Weight])[]): { literal: string; terms: string[] } {
  const entries = new Map<string, string[]>();
  let position = 0;
  let bytes = 0;
  for (const [text, weight] of columns) {
    for (const word of lexemes(text)) {
      position = Math.min(position + 1, MAX_POSITION);
      let positions = entries.get(word);
      if (!positions) {
        bytes += Buffer.byteLength(word) + 8;
        if (bytes > MAX_TSVECTOR_BYTES) break;
        entries.set(word, (positions = []));
      }
      if (positions.length < MAX_POSITIONS) {
        positions.push(`${position}${weight}`);
        bytes += 2;
      }
    }
    position = Math.min(position + 1, MAX_POSITION);
  }
  const literal = [...entries].map(([word, positions]) => `${quote(word)}:${positions.join(",")}`).join(" ");
  return { literal, terms: [...entries.keys()].sort() };
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** One spelling as a tsquery operand: a lexeme, or a phrase when it holds several words. */
function operand(spelling: string, prefix: boolean): string | undefined {
  const words = lexemes(spelling);
  if (words.length === 0) return undefined;
  return words.map((word) => quote(word) + (prefix ? ":*" : "")).join(" <-> ");
}

/**
 * The tsquery of app/search/tokenize.ts's matchExpression: every word (strict) or any word, as a prefix too
 * (loose). Undefined when nothing is left to find.
 */
export function tsqueryOf(query: readonly QueryWord[], { loose = false } = {}): string | undefined {
  const parts = query.flatMap(({ word, spellings, pairs }) => {
    const prefix = (loose && !UNSPACED.test(word) && [...word].length >= 3) || pairs !== undefined;
    const options = [...new Set(spellings.map((spelling) => operand(spelling, prefix)).filter((option) => option !== undefined))];
    if (pairs && pairs.length > 0) {
      const phrase = pairs.flatMap(lexemes).map(quote).join(" <-> ");
      if (phrase) options.push(phrase);
    }
    if (options.length === 0) return [];
    return [options.length > 1 ? `(${options.join(" | ")})` : `(${options[0]})`];
  });
  return parts.length > 0 ? parts.join(loose ? " | " : " & ") : undefined;
}

/** What marks a word in a snippet: its lexeme is one of `exact`, or starts with one of `prefixes`. */
export type Matcher = { exact: Set<string>; prefixes: string[] };

export function matcherOf(query: readonly QueryWord[], { loose = false } = {}): Matcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const { word, spellings, pairs } of query) {
    const prefix = (loose && !UNSPACED.test(word) && [...word].length >= 3) || pairs !== undefined;
    for (const spelling of spellings) {
      for (const found of lexemes(spelling)) {
        if (prefix) prefixes.push(found);
        else exact.add(found);
      }
    }
  }
  return { exact, prefixes };
}

const matches = (matcher: Matcher, word: string) => matcher.exact.has(word) || matcher.prefixes.some((prefix) => word.startsWith(prefix));

/**
 * A snippet of `text` as FTS5's snippet() makes one: the window of `size` words holding the most different
 * matched words (then the most matches), centred on them, with `start`/`end` around each match and `ellipsis`
 * where text was cut. Undefined-free: a text without matches gives its first words.
 */
export function snippetOf(text: string, matcher: Matcher, { size, start, end, ellipsis }: { size: number; start: string; end: string; ellipsis: string }): string {
  const tokens: { from: number; to: number; word: string; hit: boolean }[] = [];
  for (const found of text.matchAll(WORD)) {
    const word = lexeme(found[0]);
    tokens.push({ from: found.index, to: found.index + found[0].length, word, hit: matches(matcher, word) });
  }
  if (tokens.length === 0) return text;
  let best = { score: -1, first: 0 };
  const hits = tokens.flatMap((token, index) => (token.hit ? [index] : []));
  for (const hit of hits) {
    const seen = new Set<string>();
    let score = 0;
    let last = hit;
    for (let index = hit; index < Math.min(tokens.length, hit + size); index++) {
      const token = tokens[index]!;
      if (!token.hit) continue;
      score += seen.has(token.word) ? 1 : 1000;
      seen.add(token.word);
      last = index;
    }
    if (score > best.score) {
      // Centred on the matches, as FTS5 places its window.
      const first = Math.max(0, Math.min(hit - Math.floor((size - (last - hit + 1)) / 2), tokens.length - size));
      best = { score, first };
    }
  }
  const first = best.first;
  const lastIndex = Math.min(tokens.length, first + size) - 1;
  let result = first > 0 ? ellipsis : text.slice(0, tokens[0]!.from);
  for (let index = first; index <= lastIndex; index++) {
    const token = tokens[index]!;
    const word = text.slice(token.from, token.to);
    result += token.hit ? start + word + end : word;
    if (index < lastIndex) result += text.slice(token.to, tokens[index + 1]!.from);
  }
  result += lastIndex < tokens.length - 1 ? ellipsis : text.slice(tokens[lastIndex]!.to);
  return result;
}
