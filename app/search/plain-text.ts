import { proseOf } from "~/blog/reading-time";

/**
 * A markdown body as the words a reader sees: link and image addresses, tags and markup left out. Linear
 * in the body's length, as the reading time's scans are (proseOf): a hostile body must not hold the
 * thread that stores it in the catalogue (docs/decisions/029).
 */
export function plainText(markdown: string): string {
  return proseOf(markdown.replaceAll("![", "["))
    .replace(/^[ \t]{0,3}(?:#{1,6}|>+|[-*+])[ \t]+/gm, "")
    .replace(/[*_`~[\]|]+/g, "")
    .replace(/[ \t]+/g, " ");
}
