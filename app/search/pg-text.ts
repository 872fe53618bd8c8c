import { withoutMarks } from "./folding";
import type { QueryWord } from "./tokenize";
import { asPrefix, WORD } from "./tokenize";

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

/** Words of the body kept for ranking: the ones an article uses most, what it is about. */
const RANKING_BODY_WORDS = 32;
const RANKING_POSITIONS = 4;

/**
 * A tsvector literal of the columns in order, each with its weight (`literal`, for matching), and a small one
 * for ranking (`ranking`): the words of the A, B and C columns and the D columns' most used words. Ranking
 * reads the tsvector of every match: the whole body's would make a search of a common word read megabytes.
 * A position is skipped between columns so that no phrase spans two of them. Past PostgreSQL's limits,
 * positions stay at the last one and further words are left out; bodies are cut to a size well inside them.
 */
export function tsvectorOf(columns: readonly (readonly [text: string, weight: Weight])[]): {
  literal: string;
  ranking: string;
  terms: string[];
} {
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
  const written = (list: Iterable<[string, string[]]>) =>
    [...list].map(([word, positions]) => `${quote(word)}:${positions.join(",")}`).join(" ");
  const headed = [...entries].filter(([, positions]) => positions.some((at) => !at.endsWith("D")));
  const bodyOnly = [...entries]
    .filter(([, positions]) => positions.every((at) => at.endsWith("D")))
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, RANKING_BODY_WORDS);
  const ranking = written(
    [...headed, ...bodyOnly].map(([word, positions]) => [word, positions.slice(0, RANKING_POSITIONS)]),
  );
  return { literal: written(entries), ranking, terms: [...entries.keys()].sort() };
}

/** One alternative of a query word: a lexeme, or a phrase when it holds several, each a prefix or not. */
export type Operand = { lexemes: string[]; prefix: boolean };

/**
 * A query as its tsquery has it: every part (strict) or any part (loose), each part any of its operands; in
 * the columns of `weight` alone when given (as FTS5's column filter).
 */
export type QueryShape = { all: boolean; parts: Operand[][]; weight: Weight | "" };

/**
 * The shape of app/search/tokenize.ts's matchExpression: every word (strict) or any word, as a prefix too
 * unless `prefixes` is false (loose). Undefined when nothing is left to find.
 */
export function queryShape(
  query: readonly QueryWord[],
  { loose = false, prefixes = loose, weight = "" }: { loose?: boolean; prefixes?: boolean; weight?: Weight | "" } = {},
): QueryShape | undefined {
  const parts = query.flatMap((queryWord) => {
    const { spellings, pairs } = queryWord;
    const prefix = asPrefix(queryWord, prefixes);
    const operands = new Map<string, Operand>();
    const add = (operand: Operand) => {
      if (operand.lexemes.length > 0) operands.set(JSON.stringify(operand), operand);
    };
    for (const spelling of spellings) add({ lexemes: lexemes(spelling), prefix });
    if (pairs && pairs.length > 0) add({ lexemes: pairs.flatMap(lexemes), prefix: false });
    return operands.size > 0 ? [[...operands.values()]] : [];
  });
  return parts.length > 0 ? { all: !loose, parts, weight } : undefined;
}

/** A shape as a tsquery literal; phrases with `<->`, prefixes with `:*`. */
export function tsqueryOfShape({ all, parts, weight }: QueryShape): string {
  const written = ({ lexemes: words, prefix }: Operand) => {
    const label = (prefix ? "*" : "") + weight;
    return words.map((word) => quote(word) + (label ? `:${label}` : "")).join(" <-> ");
  };
  return parts.map((operands) => `(${operands.map(written).join(" | ")})`).join(all ? " & " : " | ");
}

/** The tsquery of queryShape, or undefined when nothing is left to find. */
export function tsqueryOf(
  query: readonly QueryWord[],
  options: Parameters<typeof queryShape>[1] = {},
): string | undefined {
  const shape = queryShape(query, options);
  return shape && tsqueryOfShape(shape);
}

/**
 * Bounds on how many of a catalogue's `articles` match a shape, given how many hold each lexeme (`docs`) and
 * the words starting with each prefix (`prefixed`: their sum bounds it from above, the most common from
 * below), of every column. A phrase is found at most where all its words are, and perhaps nowhere; any of
 * several alternatives at least where the commonest is; all of several parts at most where the rarest is,
 * and at least where they cannot miss each other (two parts each in 60 % of the articles: in 20 % at least).
 */
export function matchBounds(
  { all, parts, weight }: QueryShape,
  docs: (lexeme: string) => number,
  prefixed: (prefix: string) => { sum: number; most: number },
  articles: number,
): { atMost: number; atLeast: number } {
  const operand = ({ lexemes: words, prefix }: Operand) => {
    const counts = words.map((word) => (prefix ? prefixed(word) : { sum: docs(word), most: docs(word) }));
    const atMost = Math.min(...counts.map((count) => count.sum));
    // Counts are of every column: with a weight, a word may be held elsewhere only.
    return { atMost, atLeast: counts.length === 1 && !weight ? counts[0]!.most : 0 };
  };
  const anyOf = (bounds: { atMost: number; atLeast: number }[]) => ({
    atMost: bounds.reduce((sum, bound) => sum + bound.atMost, 0),
    atLeast: Math.max(...bounds.map((bound) => bound.atLeast)),
  });
  const bounds = parts.map((operands) => anyOf(operands.map(operand)));
  if (!all) return anyOf(bounds);
  const missed = bounds.reduce((sum, bound) => sum + (articles - Math.min(bound.atLeast, articles)), 0);
  return { atMost: Math.min(...bounds.map((bound) => bound.atMost)), atLeast: Math.max(0, articles - missed) };
}

/**
 * The phrases of a query as FTS5 counts them for a snippet: one for each spelling of each word (and for a
 * Korean word's syllable pairs), each its words' lexemes, the last one a prefix in a loose search.
 */
export type Phrase = { words: string[]; prefix: boolean };

export function phrasesOf(query: readonly QueryWord[], { loose = false } = {}): Phrase[] {
  return query.flatMap((queryWord) => {
    const { spellings, pairs } = queryWord;
    const prefix = asPrefix(queryWord, loose);
    const phrases = spellings.map((spelling) => ({ words: lexemes(spelling), prefix }));
    if (pairs && pairs.length > 0) phrases.push({ words: pairs.flatMap(lexemes), prefix: false });
    return phrases.filter((phrase) => phrase.words.length > 0);
  });
}

const SPACE = new Set([" ", "\t", "\n", "\r"]);
// Control characters included: any text without a letter beyond ASCII.
// eslint-disable-next-line no-control-regex
const ASCII_TEXT = /^[\x00-\x7f]*$/;
/** WORD in ASCII text: letters and digits are its only letters, numbers and marks. */
const ASCII_WORD = /[A-Za-z0-9]+/g;

/** Whether the text before `at` ends with "." or ":" and white space. */
function afterSentenceEnd(text: string, at: number): boolean {
  let index = at - 1;
  while (index >= 0 && SPACE.has(text[index]!)) index--;
  return index < at - 1 && index >= 0 && (text[index] === "." || text[index] === ":");
}

/**
 * A snippet of `text` as FTS5's snippet() makes one (sqlite/ext/fts5/fts5_aux.c), so that both stores show
 * the same: for each match, the window of `size` words from it scores 1000 for each phrase it holds and 1
 * for each repeat, and is centred on its matches; a window from the start of the match's sentence scores 100
 * more (120 at the text's start). The best window's matches are put between `start` and `end`, with
 * `ellipsis` where text was cut.
 */
export function snippetOf(
  text: string,
  phrases: readonly Phrase[],
  { size, start, end, ellipsis }: { size: number; start: string; end: string; ellipsis: string },
): string {
  // A page of results cuts ten snippets from long bodies: each word is kept as two numbers and its lexeme
  // rather than as an object.
  const froms: number[] = [];
  const tos: number[] = [];
  const words: string[] = [];
  const sentences: number[] = [];
  // In ASCII text a word is a run of letters and digits, and its lexeme its lower case: found without
  // Unicode's classes, several times faster.
  const ascii = ASCII_TEXT.test(text);
  const pattern = new RegExp(ascii ? ASCII_WORD : WORD);
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    // A sentence starts at the first word, and after "." or ":" and white space (fts5SentenceFinderCb).
    if (froms.length === 0 || afterSentenceEnd(text, found.index)) sentences.push(froms.length);
    const raw = found[0];
    froms.push(found.index);
    tos.push(pattern.lastIndex);
    words.push(ascii ? raw.toLowerCase() : lexeme(raw));
  }
  const count = words.length;
  if (count === 0) return text;
  const phraseAt = ({ words: wanted, prefix }: Phrase, at: number) => {
    if (at + wanted.length > count) return false;
    for (let index = 0; index < wanted.length; index++) {
      const word = words[at + index]!;
      if (prefix && index === wanted.length - 1 ? !word.startsWith(wanted[index]!) : word !== wanted[index])
        return false;
    }
    return true;
  };
  // In the order of the text (and of the phrases at one word), which score() relies on.
  const instances: { phrase: number; at: number; length: number }[] = [];
  for (let at = 0; at < count; at++)
    for (let index = 0; index < phrases.length; index++)
      if (phraseAt(phrases[index]!, at)) instances.push({ phrase: index, at, length: phrases[index]!.words.length });
  const firstAtOrAfter = (from: number) => {
    let low = 0;
    let high = instances.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (instances[middle]!.at < from) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const score = (from: number) => {
    const seen = new Set<number>();
    let total = 0;
    let first = -1;
    let last = 0;
    for (let index = firstAtOrAfter(from); index < instances.length && instances[index]!.at < from + size; index++) {
      const instance = instances[index]!;
      total += seen.has(instance.phrase) ? 1 : 1000;
      seen.add(instance.phrase);
      if (first < 0) first = instance.at;
      last = instance.at + instance.length;
    }
    let adjusted = first - Math.trunc((size - (last - first)) / 2);
    if (adjusted + size > count) adjusted = count - size;
    return { total, start: Math.max(0, adjusted) };
  };
  let best = { score: 0, start: 0 };
  // The sentence of each instance, found by walking the sentences along with the instances.
  let sentenceIndex = 0;
  for (const instance of instances) {
    const around = score(instance.at);
    if (around.total > best.score) best = { score: around.total, start: around.start };
    if (count > size) {
      // The first sentence starts at word 0, so the one found always starts at or before the instance.
      while (sentenceIndex + 1 < sentences.length && sentences[sentenceIndex + 1]! <= instance.at) sentenceIndex++;
      const sentence = sentences[sentenceIndex]!;
      if (sentence < instance.at) {
        const fromSentence = score(sentence).total + (sentence === 0 ? 120 : 100);
        if (fromSentence > best.score) best = { score: fromSentence, start: sentence };
      }
    }
  }
  const first = best.start;
  const lastIndex = Math.min(count, first + size) - 1;
  // A phrase's words are marked as one, with what is between them (a Tibetan word's tshegs), and instances
  // that overlap as one, as FTS5 marks them (fts5CInstIterNext).
  const ranges: { from: number; to: number }[] = [];
  for (const instance of instances) {
    const to = instance.at + instance.length - 1;
    const last = ranges.at(-1);
    if (last && instance.at <= last.to) last.to = Math.max(last.to, to);
    else ranges.push({ from: instance.at, to });
  }
  const opens = new Map<number, number>();
  for (const range of ranges)
    if (range.to >= first && range.from <= lastIndex)
      opens.set(Math.max(range.from, first), Math.min(range.to, lastIndex));
  let result = first > 0 ? ellipsis : text.slice(0, froms[0]);
  let closeAt = -1;
  for (let index = first; index <= lastIndex; index++) {
    const to = opens.get(index);
    if (to !== undefined) {
      result += start;
      closeAt = to;
    }
    result += text.slice(froms[index], tos[index]);
    if (index === closeAt) result += end;
    if (index < lastIndex) result += text.slice(tos[index], froms[index + 1]);
  }
  result += lastIndex < count - 1 ? ellipsis : text.slice(tos[lastIndex]);
  return result;
}
