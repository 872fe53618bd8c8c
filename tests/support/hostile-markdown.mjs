// Article bodies that cost markdown parsers dearly, for the tests (tests/server/hostile-markdown.test.ts) and
// the benchmark (scripts/bench-content.mjs): the shapes found to freeze or kill the server (issue 28), and a
// generator of patterns of costly units repeated up to the backend's reply cap.
import fc from "fast-check";

/** The backend reply cap (app/blog/http-source.server.ts), less room for the other fields of the reply. */
export const REPLY_CAP = 2 * 1024 * 1024 - 4096;

/** @type {[string, string][]} each shape's name and body, as big as it was found to do harm */
export const knownShapes = [
  ["100,000 links", "[a](/N) ".repeat(100_000)],
  ["40,000 links", "[a](/N) ".repeat(40_000)],
  ["emphasis openers", "*a ".repeat(600_000)],
  ["underscores", "_a".repeat(900_000)],
  ["backticks", "`a".repeat(900_000)],
  ["brackets", "[".repeat(1_800_000)],
  ["entities", "&amp;".repeat(360_000)],
  ["40,000 reference definitions", Array.from({ length: 40_000 }, (_, index) => `[r${index}]: /x${index}`).join("\n")],
  ["50,000 list markers on a line", `${"- ".repeat(50_000)}x`],
  ["50,000 nested block quotes", `${">".repeat(50_000)} hi`],
  ["50,000 emphasis marks each side", `${"*".repeat(50_000)}a${"*".repeat(50_000)}`],
  ["unclosed tags", "<a ".repeat(600_000)],
  ["700 list levels on a line", `${"- ".repeat(700)}x`],
  ["700 list levels by indentation", Array.from({ length: 700 }, (_, level) => `${"  ".repeat(level)}- x`).join("\n")],
  ["unclosed link addresses", "](".repeat(200_000)],
  ["guillemets", "‹".repeat(100_000)],
  ["lines of a space", " \n".repeat(50_000)],
  ["setext headings", "a\n=\n\n".repeat(5_000)],
];

/**
 * Units the parser finds costly, repeated in patterns up to the reply cap: nesting, emphasis runs, brackets,
 * links, reference definitions, HTML, entities, escapes, setext headings, long lines, and mixtures of them.
 */
const unit = fc.constantFrom(
  ">",
  "> ",
  "- ",
  "* ",
  "+ ",
  "1. ",
  "  ",
  "\t",
  "*",
  "**",
  "_",
  "*a ",
  "_a",
  "`",
  "`a",
  "[",
  "]",
  "(",
  ")",
  "](",
  "[a](/N) ",
  "![i](/i.png)",
  "[r]: /x\n",
  "[r]",
  "<",
  "<a ",
  "<div>",
  "</div>",
  "&amp;",
  "&#x1F600;",
  "\\",
  "\\*",
  "=",
  "---",
  "a",
  "word ",
  "\n",
  "\n\n",
  " \n",
  "‹",
  "瞑想",
  "https://example.org/ ",
);

export const pathologicalMarkdown = fc
  .record({
    pattern: fc.array(fc.tuple(unit, fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 6 }),
    length: fc.oneof(fc.integer({ min: 100, max: 20_000 }), fc.integer({ min: 20_000, max: REPLY_CAP })),
  })
  .map(({ pattern, length }) => {
    const piece = pattern.map(([text, times]) => text.repeat(times)).join("");
    return piece.repeat(Math.ceil(length / piece.length)).slice(0, length);
  });

/** `body`, shortened if need be so that its reply, encoded as JSON, stays within the reply cap. */
export function withinReplyCap(body) {
  const encoded = JSON.stringify(body).length;
  return encoded <= REPLY_CAP ? body : body.slice(0, Math.floor((body.length * REPLY_CAP) / encoded));
}
