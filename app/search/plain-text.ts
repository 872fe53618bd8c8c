/** A markdown body as the words a reader sees: link and image addresses, tags and markup left out. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/<[^>\n]*>/g, " ")
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/[*_`~[\]|]+/g, "")
    .replace(/[ \t]+/g, " ");
}
