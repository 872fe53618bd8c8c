import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexedText, plainTextInPieces } from "~/search/indexed-text.server";
import { plainText } from "~/search/plain-text";
import { foldedText, spacedText } from "~/search/tokenize";

// A body's searchable text worked out a piece at a time (docs/decisions/041) is the same as worked out whole.

const word = fc.constantFrom(
  "breath",
  "Đạo",
  "dhamma",
  "禪宗",
  "瞑想する",
  "สมาธิภาวนา",
  "ສະມາທິ",
  "ကမ္မဋ္ဌာန်း",
  "불교명상을",
  "nibbāna",
  "e\u0301",
  "\u0000",
);
const separator = fc.constantFrom(" ", "\n", ", ", "。", " — ", "\n\n");
const body = fc
  .array(fc.tuple(word, separator), { maxLength: 400 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));

describe("a body's searchable text", () => {
  it("is the same worked out in pieces as whole, for any script", async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 16, max: 300 }), async (text, pieceChars) => {
        expect(await indexedText(text, pieceChars)).toEqual({ spaced: spacedText(text), folded: foldedText(text) });
      }),
      { numRuns: 200 },
    );
  });

  it("gives the thread back between pieces", async () => {
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    const ticker = () => new Promise<void>((resolve) => setImmediate(resolve));
    await ticker();
    const before = turns;
    await indexedText("สมาธิ ".repeat(20_000), 1024);
    clearInterval(counting);
    // About a hundred pieces: timers ran between them, not only after.
    expect(turns - before).toBeGreaterThan(10);
  });
});

describe("a body's prose for the catalogue", () => {
  const paragraph = fc
    .array(
      fc.constantFrom(
        "Breath ",
        "[a link](https://example.org/a) ",
        "**stress** ",
        "<b>tag</b> ",
        "ສະມາທິ ",
        "## ",
        "1. ",
        "> ",
        "![i](/i.png) ",
      ),
      { minLength: 1, maxLength: 40 },
    )
    .map((parts) => parts.join(""));

  // Pieces longer than any paragraph: each ends at a blank line.
  it("is the same made plain in pieces as whole, for paragraphs of any markup", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(paragraph, { maxLength: 60 }),
        fc.integer({ min: 1300, max: 5000 }),
        async (paragraphs, pieceChars) => {
          const markdown = paragraphs.join("\n\n");
          expect(await plainTextInPieces(markdown, pieceChars)).toBe(plainText(markdown));
        },
      ),
      { numRuns: 150 },
    );
  });
});
