// Characters a reader's fonts may lack: those a browser draws from an emoji font (emoji presentation by
// default, anything forced to it by U+FE0F, flags). Every emoji since 2021 is among them, and an emoji font
// older than the character shows a box (Windows 10, older Android phones, Debian 12). Pictographs that are
// text by default, such as © or ↗, are in ordinary text fonts and pass.

const risky = /[\p{Emoji_Presentation}\u{FE0F}\p{Regional_Indicator}]/gu;

/**
 * The risky characters in a text, each with its code point and a little context.
 * @param {string} text
 * @returns {string[]}
 */
export function fontRisks(text) {
  return [...text.matchAll(risky)].map((match) => {
    const code = `U+${match[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
    const around = text.slice(Math.max(0, match.index - 20), match.index + 20).replace(/\s+/g, " ");
    return `${code} in "${around}"`;
  });
}
