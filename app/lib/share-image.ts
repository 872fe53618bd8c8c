import { ENSO_PATH } from "./enso";
import { escapeMarkup } from "./escape-markup";

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
const SERIF = "DejaVu Serif, Liberation Serif, serif";
const SANS = "DejaVu Sans, Liberation Sans, sans-serif";

/** Words into `lines` lines (or fewer, when there are fewer words) with the longest line as short as it can be. */
export function splitLines(text: string, lines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const count = Math.min(lines, words.length);
  if (count <= 1) return words.length ? [words.join(" ")] : [];
  // best[i][k]: the shortest possible longest line for the first i words in k lines, and where the last one starts.
  const best = Array.from({ length: words.length + 1 }, () => Array.from({ length: count + 1 }, () => ({ longest: Infinity, start: 0 })));
  best[0]![0] = { longest: 0, start: 0 };
  for (let end = 1; end <= words.length; end += 1) {
    for (let k = 1; k <= count; k += 1) {
      for (let start = k - 1; start < end; start += 1) {
        const longest = Math.max(best[start]![k - 1]!.longest, words.slice(start, end).join(" ").length);
        if (longest < best[end]![k]!.longest) best[end]![k] = { longest, start };
      }
    }
  }
  const result: string[] = [];
  for (let end = words.length, k = count; k > 0; k -= 1) {
    const { start } = best[end]![k]!;
    result.unshift(words.slice(start, end).join(" "));
    end = start;
  }
  return result;
}

/** As few lines as keep each within `perLine` characters, at most `maxLines`. */
export function fitLines(text: string, perLine: number, maxLines: number): string[] {
  for (let lines = 1; lines < maxLines; lines += 1) {
    const split = splitLines(text, lines);
    if (Math.max(...split.map((line) => line.length)) <= perLine) return split;
  }
  return splitLines(text, maxLines);
}

function mark(x: number, y: number, size: number, color: string): string {
  const scale = size / 64;
  return `<g transform="translate(${x} ${y}) scale(${scale})"><path d="${ENSO_PATH}" fill="none" stroke="${color}" stroke-width="6" stroke-linecap="round"/></g>`;
}

export function shareImageSvg(siteName: string, tagline: string): string {
  const { width, height } = SHARE_IMAGE;
  const textX = 560;
  const textWidth = width - textX - 70;
  const nameLines = fitLines(siteName, 14, 3);
  const longest = Math.max(...nameLines.map((line) => line.length), 1);
  // About 0.66 em per character for this bold serif: the longest line fills the width, within 40–96 px.
  const nameSize = Math.round(Math.min(96, Math.max(40, textWidth / (0.66 * longest))));
  const taglineLines = fitLines(tagline, 30, 2);
  const taglineSize = 32;
  const blockHeight = nameLines.length * nameSize * 1.15 + 40 + taglineLines.length * taglineSize * 1.4;
  let y = (height - blockHeight) / 2 + nameSize;
  const name = nameLines
    .map((line, index) => `<text x="${textX}" y="${Math.round(y + index * nameSize * 1.15)}" font-family="${SERIF}" font-size="${nameSize}" font-weight="bold" fill="${INK}">${escapeMarkup(line)}</text>`)
    .join("");
  y += (nameLines.length - 1) * nameSize * 1.15 + 40 + taglineSize;
  const tag = taglineLines
    .map((line, index) => `<text x="${textX}" y="${Math.round(y + index * taglineSize * 1.4)}" font-family="${SANS}" font-size="${taglineSize}" fill="${MOSS}">${escapeMarkup(line)}</text>`)
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${PAPER}"/><rect x="0" y="${height - 16}" width="${width}" height="16" fill="${MOSS}"/>${mark(70, 95, 440, MOSS)}${name}${tag}</svg>`;
}

export function logoSvg(): string {
  const { width, height } = LOGO;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${PAPER}"/>${mark(12, 12, 120, MOSS)}</svg>`;
}
