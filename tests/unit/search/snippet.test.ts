import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { phrasesOf, snippetOf } from "~/search/pg-text";
import { FTS5_TOKENIZER } from "~/search/sqlite-catalogue.server";
import { queryWords } from "~/search/tokenize";

// PostgreSQL's results cut their snippets in JavaScript (app/search/pg-text.ts) as FTS5's snippet() does for
// SQLite's, so that a search shows the same snippet from either store: checked here against FTS5 itself,
// with the catalogue's tokenizer, on generated texts and queries. ASCII texts take a faster way to their
// words than other texts: both are generated.
const db = new Database(":memory:");
db.exec(`CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = "${FTS5_TOKENIZER}")`);
const insert = db.prepare("INSERT INTO t (rowid, body) VALUES (1, ?)");
const fts5Snippet = db.prepare<[number, string], { snippet: string }>(
  "SELECT snippet(t, 0, '[', ']', '…', ?) AS snippet FROM t WHERE t MATCH ?",
);
afterAll(() => db.close());

const ASCII_WORDS = [
  "breath",
  "Breath",
  "BELL",
  "bell",
  "teacher",
  "the",
  "sit",
  "sitting",
  "a",
  "of",
  "zen",
  "2026",
  "x9",
];
const OTHER_WORDS = ["Thiền", "thien", "Đạo", "café", "cafe", "nibbāna"];
const SEPARATORS = [" ", ". ", ": ", ", ", "\n\n", " - ", ".", "  ", "! ", "? "];

const textOf = (words: string[]) =>
  fc
    .array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 120 })
    .map((pairs) => pairs.map(([word, separator]) => word + separator).join(""));

describe("snippets on PostgreSQL", () => {
  it("are FTS5's snippets, in ASCII texts and others, for one word or several, a prefix or a phrase", () => {
    fc.assert(
      fc.property(
        fc.oneof(textOf(ASCII_WORDS), textOf([...ASCII_WORDS, ...OTHER_WORDS])),
        fc.array(fc.constantFrom(...ASCII_WORDS, ...OTHER_WORDS, "bre", "tea"), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.integer({ min: 4, max: 40 }),
        (text, words, prefix, size) => {
          const query = queryWords(words.join(" "));
          const phrases = phrasesOf(query).map((phrase) => ({ ...phrase, prefix }));
          const expression = phrases
            .map((phrase) => `"${phrase.words.join(" ")}"${phrase.prefix ? " *" : ""}`)
            .join(" OR ");
          db.exec("DELETE FROM t");
          insert.run(text);
          const expected = fts5Snippet.get(size, expression)?.snippet;
          fc.pre(expected !== undefined);
          expect(snippetOf(text, phrases, { size, start: "[", end: "]", ellipsis: "…" })).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});
