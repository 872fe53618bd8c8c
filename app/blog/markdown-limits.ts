import { escapeMarkup } from "~/document/escape-markup";
import { wholeLetterCut } from "./field-bounds";

/**
 * How much markdown an article body may ask the parser to work through. The markdown libraries' time and
 * memory grow faster than the text with nesting and with the number of constructs they must resolve
 * (figures in docs/decisions/029), so these are checked in one pass before any parsing; past them the rest
 * of the body is shown as plain text. The render itself still runs in a worker with a time and memory
 * limit (article-body.server.ts), for any shape this count does not foresee.
 */
export const MARKDOWN_LIMITS = {
  /** Block quotes and list items open on one line, by its markers and indentation (two columns a level). */
  maxDepth: 16,
  /**
   * Units of parsing work: one per markup character (`[ ] * _ \` < & \\`), d(d+1)/2 per line inside d
   * containers (each line is checked against each open container), and 10 for a line that makes the parser
   * go back over the events before it (a setext underline, a lazy continuation of a quote or list).
   */
  maxUnits: 10_000,
  /** Characters rendered with their formatting. */
  maxFormattedChars: 256 * 1024,
  /** Characters shown as plain text after the formatted part; the rest is left out. */
  maxPlainChars: 100_000,
};

export type MarkdownLimits = typeof MARKDOWN_LIMITS;

/** A body split by the limits: the part to render as markdown, the part shown as plain text, and whether some was left out. */
export type BodyPlan = { formatted: string; plain: string; cut: boolean };

/** Units a line costs that makes the parser move the events before it. */
const REWINDING_LINE = 10;

/**
 * Where the body stops being renderable within `limits`: it is cut at the blank line before the first line
 * past a limit (so the formatted part ends between blocks), and what follows is plain text. Linear in the
 * body's length.
 */
export function planBody(markdown: string, limits: MarkdownLimits = MARKDOWN_LIMITS): BodyPlan {
  let units = 0;
  /** The end of the last blank line: the latest place to cut between blocks. */
  let lastBreak = 0;
  let previous: { blank: boolean; depth: number } = { blank: true, depth: 0 };
  let cutAt = markdown.length;
  for (let start = 0; start < markdown.length;) {
    const newline = markdown.indexOf("\n", start);
    const end = newline === -1 ? markdown.length : newline;
    const line = measureLine(markdown, start, end, limits.maxDepth);
    if (line.blank) {
      lastBreak = Math.min(end + 1, markdown.length);
    } else {
      units += (line.depth * (line.depth + 1)) / 2 + line.markup;
      const lazy = !previous.blank && previous.depth > 0 && line.depth === 0;
      if ((line.underline && !previous.blank) || lazy) units += REWINDING_LINE;
      if (line.depth > limits.maxDepth || units > limits.maxUnits || end > limits.maxFormattedChars) {
        cutAt = lastBreak;
        break;
      }
    }
    previous = line;
    start = end + 1;
  }
  return { ...allPlain(markdown.slice(cutAt), limits), formatted: markdown.slice(0, cutAt) };
}

/** The whole body as plain text, within the limit of plain characters. */
export function allPlain(markdown: string, limits: MarkdownLimits = MARKDOWN_LIMITS): BodyPlan {
  const plain = markdown.length > limits.maxPlainChars ? cutAtSpace(markdown, limits.maxPlainChars) : markdown;
  return { formatted: "", plain, cut: plain.length < markdown.length };
}

const SPACE = 32;
const TAB = 9;

/** Markup characters: each may open or close a construct the parser has to match. */
const MARKUP = new Set([..."[]*_`<&\\"].map((character) => character.charCodeAt(0)));

/**
 * One line's container depth (its quote and list markers, and its indentation before them, counted up to
 * one past `maxDepth`), its markup characters, and whether it is blank or a run of `=` or `-` alone.
 */
function measureLine(text: string, start: number, end: number, maxDepth: number) {
  if (isBlank(text, start, end)) return { blank: true, depth: 0, markup: 0, underline: false };
  let at = start;
  let markers = 0;
  let indent = 0;
  while (at < end && markers <= maxDepth) {
    const code = text.charCodeAt(at);
    if (code === SPACE || code === TAB) {
      if (markers === 0) indent += code === TAB ? 4 : 1;
      at++;
      continue;
    }
    const marker = containerMarker(text, at, end);
    if (marker === 0) break;
    markers++;
    at += marker;
  }
  let markup = 0;
  const first = text.charCodeAt(at);
  let underline = first === 61 || first === 45; // "=" or "-"
  for (let index = at; index < end; index++) {
    const code = text.charCodeAt(index);
    if (MARKUP.has(code)) markup++;
    if (underline && code !== first && code !== SPACE && code !== TAB && code !== 13) underline = false;
  }
  return { blank: false, depth: markers + Math.floor(indent / 2), markup, underline };
}

function isBlank(text: string, from: number, end: number): boolean {
  for (let index = from; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code !== SPACE && code !== TAB && code !== 13) return false;
  }
  return true;
}

/** The length of a block quote or list marker at `at` (with the space after a list marker), or 0. */
function containerMarker(text: string, at: number, end: number): number {
  const code = text.charCodeAt(at);
  if (code === 62) return 1; // ">"
  const spaceAfter = (index: number) =>
    index >= end || text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB;
  if ((code === 45 || code === 42 || code === 43) && spaceAfter(at + 1)) return 1; // "-", "*", "+"
  let digits = at;
  while (digits < end && digits - at < 9 && text.charCodeAt(digits) >= 48 && text.charCodeAt(digits) <= 57) digits++;
  const punctuation = text.charCodeAt(digits);
  if (digits > at && (punctuation === 46 || punctuation === 41) && spaceAfter(digits + 1)) return digits + 1 - at; // "1." or "1)"
  return 0;
}

/** The first `max` characters or fewer, ending at a space when there is one near the end. */
function cutAtSpace(text: string, max: number): string {
  const space = text.lastIndexOf(" ", max);
  return text.slice(0, space > max - 200 ? space : wholeLetterCut(text, max));
}

/** Plain text as HTML paragraphs (split at blank lines), every character shown as written. */
export function plainHtml(text: string, cut = false): string {
  const paragraphs = text
    .split(/\n[ \t\r]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  if (cut && paragraphs.length > 0) paragraphs[paragraphs.length - 1] += " …";
  return paragraphs.map((paragraph) => `<p>${escapeMarkup(paragraph)}</p>`).join("\n");
}
