import { escapeMarkup } from "~/document/escape-markup";
import type { Mark } from "~/site/traditions";

/**
 * The default share image of a site (1200 × 630, what Open Graph and Twitter cards show) and its logo
 * (144 × 144: the most an RSS channel image may be, at least what Google asks of a logo), as SVG.
 * Drawn from the site's name, so each site of a deployment gets its own.
 */

export const SHARE_IMAGE = { path: "/share.png", width: 1200, height: 630 };
export const LOGO = { path: "/logo.png", width: 144, height: 144 };

const PAPER = "#f3f6ef";
const INK = "#2f4227";
const MOSS = "#3c5430";
// Latin and Cyrillic from DejaVu; Thai, Japanese, Chinese and Korean from the system's fonts for them
// (Debian's fonts-thai-tlwg and fonts-noto-cjk), which the text engine falls back to for the letters
// DejaVu lacks.
const SERIF = "DejaVu Serif, Liberation Serif, Noto Serif CJK JP, serif";
const SANS = "DejaVu Sans, Liberation Sans, Noto Sans CJK JP, sans-serif";

/**
 * Scripts drawn with a Noto font named first (Debian's fonts-noto-core), only when the text has them, so
 * other images are drawn as before: the fallback's choice is not left to chance, and DejaVu's Lao,
 * which it would take first, stacks a tone mark onto the vowel below it. Tibetan has a serif only.
 */
const SCRIPT_FONTS = [
  { letters: /\p{Script=Myanmar}/u, serif: "Noto Serif Myanmar", sans: "Noto Sans Myanmar" },
  { letters: /\p{Script=Sinhala}/u, serif: "Noto Serif Sinhala", sans: "Noto Sans Sinhala" },
  { letters: /\p{Script=Khmer}/u, serif: "Noto Serif Khmer", sans: "Noto Sans Khmer" },
  { letters: /\p{Script=Lao}/u, serif: "Noto Serif Lao", sans: "Noto Sans Lao" },
  { letters: /\p{Script=Tibetan}/u, serif: "Noto Serif Tibetan", sans: "Noto Serif Tibetan" },
  { letters: /\p{Script=Devanagari}/u, serif: "Noto Serif Devanagari", sans: "Noto Sans Devanagari" },
];

// Lines of the name, in ems, where a script's stacked marks need more than Latin's 1.15 not to touch
// the line above (the tagline takes 0.1 more, and at least 1.4).
const LINE_HEIGHTS: [RegExp, number][] = [
  [/\p{Script=Myanmar}/u, 1.6],
  [/\p{Script=Tibetan}/u, 1.6],
  [/\p{Script=Khmer}/u, 1.45],
  [/\p{Script=Sinhala}/u, 1.35],
  [/\p{Script=Lao}/u, 1.35],
  [/\p{Script=Devanagari}/u, 1.3],
];

const lineHeight = (text: string) =>
  Math.max(1.15, ...LINE_HEIGHTS.filter(([letters]) => letters.test(text)).map(([, height]) => height));

/** The font families the image names for a text, in order: the name's (bold serif) and the tagline's. */
export function fontFamilies(text: string, style: "serif" | "sans"): string {
  const own = SCRIPT_FONTS.filter((fonts) => fonts.letters.test(text)).map((fonts) => fonts[style]);
  return [...own, style === "serif" ? SERIF : SANS].join(", ");
}

/** One unit a line may not be broken inside: a word with what clings to it, and whether a space stands before it. */
type Unit = { text: string; spaced: boolean };

// Grapheme widths in Latin letters' widths (about two thirds of an em), measured on these fonts: wide
// characters take about one em, and a cluster of Sinhala, Khmer, Devanagari, Burmese or Lao more than a
// Latin letter.
const WIDTHS: [RegExp, number][] = [
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u, 1.5],
  [/\p{Script=Sinhala}/u, 1.55],
  [/\p{Script=Khmer}/u, 1.4],
  [/\p{Script=Devanagari}/u, 1.35],
  [/\p{Script=Myanmar}/u, 1.3],
  [/\p{Script=Lao}/u, 1.2],
];
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** Tibetan's syllable mark: a line may break after it. */
const TSHEG = "\u0f0b";

/** The width of a text in Latin letters' widths, grapheme by grapheme (a Thai vowel mark adds nothing). */
export function textWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes.segment(text))
    width += WIDTHS.find(([letters]) => letters.test(segment))?.[1] ?? 1;
  return width;
}

/**
 * The text's units for breaking lines: at spaces, between two words that the language writes without
 * one (Thai, Japanese, Chinese, Khmer, Lao, Burmese), as Intl.Segmenter finds them, and after a Tibetan
 * syllable's tsheg. Punctuation stays with its word.
 */
export function breakUnits(text: string, lang = "en"): Unit[] {
  const units: Unit[] = [];
  let spaced = false;
  let lastWordLike = false;
  for (const { segment, isWordLike } of new Intl.Segmenter(lang, { granularity: "word" }).segment(text.trim())) {
    if (/^\s+$/.test(segment)) {
      spaced = true;
      continue;
    }
    const last = units.at(-1);
    if (last && !spaced && !(lastWordLike && isWordLike) && !last.text.endsWith(TSHEG)) last.text += segment;
    else units.push({ text: segment, spaced: spaced && units.length > 0 });
    spaced = false;
    lastWordLike = Boolean(isWordLike);
  }
  return units;
}

const joined = (units: Unit[]) =>
  units.map((unit, index) => (index > 0 && unit.spaced ? ` ${unit.text}` : unit.text)).join("");

/** The text in `lines` lines (or fewer, when it has fewer units) with the longest line as short as it can be. */
export function splitLines(text: string, lines: number, lang = "en"): string[] {
  const units = breakUnits(text, lang);
  const count = Math.min(lines, units.length);
  if (count <= 1) return units.length ? [joined(units)] : [];
  const width = (start: number, end: number) => textWidth(joined(units.slice(start, end)));
  // best[i][k]: the shortest possible longest line for the first i units in k lines, and where the last one starts.
  const best = Array.from({ length: units.length + 1 }, () =>
    Array.from({ length: count + 1 }, () => ({ longest: Infinity, start: 0 })),
  );
  best[0]![0] = { longest: 0, start: 0 };
  for (let end = 1; end <= units.length; end += 1) {
    for (let k = 1; k <= count; k += 1) {
      for (let start = k - 1; start < end; start += 1) {
        const longest = Math.max(best[start]![k - 1]!.longest, width(start, end));
        if (longest < best[end]![k]!.longest) best[end]![k] = { longest, start };
      }
    }
  }
  const result: string[] = [];
  for (let end = units.length, k = count; k > 0; k -= 1) {
    const { start } = best[end]![k]!;
    result.unshift(joined(units.slice(start, end)));
    end = start;
  }
  return result;
}

/** As few lines as keep each within `perLine` Latin letters' widths, at most `maxLines`. */
export function fitLines(text: string, perLine: number, maxLines: number, lang = "en"): string[] {
  for (let lines = 1; lines < maxLines; lines += 1) {
    const split = splitLines(text, lines, lang);
    if (Math.max(...split.map((line) => textWidth(line))) <= perLine) return split;
  }
  return splitLines(text, maxLines, lang);
}

function drawMark(site: Mark, x: number, y: number, size: number, color: string): string {
  const scale = size / 64;
  return `<g transform="translate(${x} ${y}) scale(${scale})"><path d="${site.path}" fill="none" stroke="${color}" stroke-width="${site.strokeWidth}" stroke-linecap="round" stroke-linejoin="round"/></g>`;
}

export function shareImageSvg(siteName: string, tagline: string, mark: Mark, lang = "en"): string {
  const { width, height } = SHARE_IMAGE;
  const textX = 560;
  const columnWidth = width - textX - 70;
  const nameLines = fitLines(siteName, 14, 3, lang);
  const longest = Math.max(...nameLines.map((line) => textWidth(line)), 1);
  // About 0.66 em per character for this bold serif: the longest line fills the width, within 40–96 px.
  const nameSize = Math.round(Math.min(96, Math.max(40, columnWidth / (0.66 * longest))));
  const taglineLines = fitLines(tagline, 30, 2, lang);
  // 32 px, smaller for a tagline whose two lines are still longer than the column (within 22 px).
  const taglineSize = Math.round(
    Math.max(22, Math.min(32, (32 * 30) / Math.max(...taglineLines.map((line) => textWidth(line)), 1))),
  );
  const nameLeading = lineHeight(siteName);
  const taglineLeading = Math.max(1.4, lineHeight(tagline) + 0.1);
  const blockHeight =
    nameLines.length * nameSize * nameLeading + 40 + taglineLines.length * taglineSize * taglineLeading;
  let y = (height - blockHeight) / 2 + nameSize;
  const name = nameLines
    .map(
      (line, index) =>
        `<text x="${textX}" y="${Math.round(y + index * nameSize * nameLeading)}" font-family="${fontFamilies(siteName, "serif")}" font-size="${nameSize}" font-weight="bold" fill="${INK}">${escapeMarkup(line)}</text>`,
    )
    .join("");
  y += (nameLines.length - 1) * nameSize * nameLeading + 40 + taglineSize;
  const tag = taglineLines
    .map(
      (line, index) =>
        `<text x="${textX}" y="${Math.round(y + index * taglineSize * taglineLeading)}" font-family="${fontFamilies(tagline, "sans")}" font-size="${taglineSize}" fill="${MOSS}">${escapeMarkup(line)}</text>`,
    )
    .join("");
  // xml:lang lets the text engine pick the language's forms of shared characters (Japanese or Chinese kanji).
  return `<svg xmlns="http://www.w3.org/2000/svg" xml:lang="${escapeMarkup(lang)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${PAPER}"/><rect x="0" y="${height - 16}" width="${width}" height="16" fill="${MOSS}"/>${drawMark(mark, 70, 95, 440, MOSS)}${name}${tag}</svg>`;
}

export function logoSvg(mark: Mark): string {
  const { width, height } = LOGO;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${PAPER}"/>${drawMark(mark, 12, 12, 120, MOSS)}</svg>`;
}
