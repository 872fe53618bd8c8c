import { setImmediate as nextTurn } from "node:timers/promises";
import { codePointCut } from "~/blog/field-bounds";
import { plainText } from "./plain-text";
import { foldedOfSpaced, spacedText } from "./tokenize";

/**
 * Characters of markdown made plain (plain-text.ts) between two turns of the event loop: markup-heavy
 * bodies take up to 40 ms for 400,000 characters.
 */
export const PROSE_PIECE_CHARS = 32_768;
/** How far back from a prose piece's end a blank line, a line end or a space is looked for. */
const PROSE_LOOKBACK = 4096;

/**
 * plainText of a markdown body a piece at a time, with the thread given back between pieces. Pieces end at
 * a blank line where one is near (no inline construct spans one), else at a line end or a space.
 */
export async function plainTextInPieces(markdown: string, pieceChars = PROSE_PIECE_CHARS): Promise<string> {
  const pieces: string[] = [];
  for (let start = 0; start < markdown.length;) {
    await nextTurn();
    const end = proseCut(markdown, start, pieceChars);
    pieces.push(plainText(markdown.slice(start, end)));
    start = end;
  }
  return pieces.join("");
}

function proseCut(text: string, start: number, size: number): number {
  const end = start + size;
  if (end >= text.length) return text.length;
  for (const separator of ["\n\n", "\n", " "]) {
    const at = text.lastIndexOf(separator, end - separator.length);
    if (at > start && at > end - PROSE_LOOKBACK) return at + separator.length;
  }
  return codePointCut(text, end);
}

/**
 * Characters of a body worked on between two turns of the event loop when it is indexed: segmenting
 * unspaced scripts takes about a millisecond per thousand characters (Lao, Thai), and a body may hold
 * hundreds of thousands (docs/decisions/041).
 */
export const INDEX_PIECE_CHARS = 8192;
/** How far back from a piece's end a space or punctuation is looked for, to cut between words. */
const CUT_LOOKBACK = 256;
const BETWEEN_WORDS = /[\s\p{P}]/u;

export type IndexedText = { spaced: string; folded: string };

/**
 * spacedText and foldedText of a body, the same as for the whole text but worked out a piece at a time,
 * with the thread given back between pieces, so that indexing a long body never holds every other
 * request. Pieces end at a space or punctuation where one is near, so no word is split.
 */
export async function indexedText(text: string, pieceChars = INDEX_PIECE_CHARS): Promise<IndexedText> {
  const spaced: string[] = [];
  const folded: string[] = [];
  const seen = new Map<string, string[]>();
  for (let start = 0; start < text.length;) {
    // Each piece in a turn of its own, the first too: the caller's work before it ran in this one.
    await nextTurn();
    const end = pieceEnd(text, start, pieceChars);
    const piece = spacedText(text.slice(start, end));
    spaced.push(piece);
    const extra = foldedOfSpaced(piece, seen);
    if (extra) folded.push(extra);
    start = end;
  }
  return { spaced: spaced.join(""), folded: folded.join(" ") };
}

function pieceEnd(text: string, start: number, size: number): number {
  const end = start + size;
  if (end >= text.length) return text.length;
  for (let cut = end; cut > end - CUT_LOOKBACK; cut -= 1) if (BETWEEN_WORDS.test(text[cut - 1]!)) return cut;
  // No break nearby (one long run of a script without spaces): cut between code points.
  return codePointCut(text, end);
}
