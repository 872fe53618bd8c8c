import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { renderArticleBody, BODY_PAGE_BYTES, pageBytesOf, type RenderMarkdown } from "~/blog/article-body.server";
import { boundedChars, boundedText, FIELD_BOUNDS, joinsNext } from "~/blog/field-bounds";
import { splitKeywords } from "~/blog/keywords";
import { renderMarkdown } from "~/blog/markdown.server";
import { markdownWords } from "~/blog/reading-time";
import { articleSchema, readListReply } from "~/blog/schema.server";
import { escapeScriptData } from "~/document/inline-script";

// Each field of an article bounded where the reply is read (docs/decisions/041), by generation: texts of
// any script, size and shape, cut where a reader would not see a broken character.

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemesOf = (text: string) => [...graphemes.segment(text)].map((part) => part.segment);

/** Texts made of pieces that join into graphemes in every way: marks, ZWJ sequences, flags, surrogates, CJK, Lao. */
const anyText = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.constantFrom("\u0301", "👩‍👩‍👧‍👦", "🇯🇵", "\u200d", "瞑想", "ສະມາທິ", " ", "\n", ",", "\ud800"),
    ),
    { maxLength: 200 },
  )
  .map((parts) => parts.join(""));

describe("a bounded text", () => {
  it("is the text itself when it fits, else at most the bound, a prefix of whole graphemes and an ellipsis", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 300 }), (text, max) => {
        const bounded = boundedText(text, max);
        if (text.length <= max) {
          expect(bounded).toBe(text);
          return;
        }
        expect(bounded.length).toBeLessThanOrEqual(max);
        expect(bounded.endsWith("…")).toBe(true);
        const kept = bounded.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        // The cut is between graphemes (after any spaces dropped before the ellipsis), unless the first
        // grapheme alone is longer than the bound.
        const boundaries = new Set(graphemesOf(text).map((_, index, all) => all.slice(0, index + 1).join("").length));
        const spaces = /^\s*/.exec(text.slice(kept.length))![0].length;
        const onBoundary = Array.from({ length: spaces + 1 }, (_, extra) => kept.length + extra).some((at) =>
          boundaries.has(at),
        );
        if (graphemesOf(text)[0]!.length < max - 1) expect(onBoundary || kept.length === 0).toBe(true);
      }),
    );
  });

  it("never splits a grapheme: a letter's marks, a family emoji and a flag stay whole or go together", () => {
    expect(boundedText(`${"a".repeat(8)}e\u0301e\u0301`, 10)).toBe(`${"a".repeat(8)}…`);
    expect(boundedText(`${"a".repeat(8)}e\u0301e\u0301`, 11)).toBe(`${"a".repeat(8)}e\u0301…`);
    expect(boundedText(`abc👩‍👩‍👧‍👦def`, 12)).toBe("abc…");
    expect(boundedText(`ab🇯🇵🇯🇵`, 6)).toBe("ab…");
    expect(boundedText(`ab🇯🇵🇯🇵`, 7)).toBe("ab🇯🇵…");
    // A lone joiner first: the only boundary in reach is after it, inside a letter, so nothing is kept
    // rather than half a flag.
    expect(boundedText("\u200d🇯🇵", 4)).toBe("…");
    // One grapheme longer than the bound (a letter with thousands of marks) is cut between code points.
    const long = `a${"\u0301".repeat(5000)}`;
    expect(boundedText(long, 100)).toHaveLength(100);
  });

  it("never cuts a letter that a joiner or a stacking sign holds together, though a grapheme boundary is there", () => {
    // Intl's graphemes end after the joiner of ශ්‍රී: cut there, the title would show ශ් and a bare joiner.
    expect(graphemesOf("අ ශ්‍රී")).toEqual(["අ", " ", "ශ්‍", "රී"]);
    expect(boundedText("අ ශ්‍රී ලංකාව", 6)).toBe("අ…");
    expect(boundedText("අ ක‍්ෂ ලංකාව", 6)).toBe("අ…");
    const word = fc.constantFrom(
      "ශ්‍රී",
      "විද්‍යාව",
      "ක්‍රියාව",
      "ප්‍රඥාව",
      "ක‍්ෂණය",
      "ධර්මය",
      "ស្ត្រី",
      "ព្រះធម៌",
      "ម៉ាស្ទ័រ",
      "ကမ္မဋ္ဌာန်း",
      "ဗုဒ္ဓ",
      "བྱང་ཆུབ",
      "क्षमा",
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), fc.integer({ min: 10, max: 120 }), (words, max) => {
        const text = words.join(" ");
        const kept = boundedText(text, max).replace(/…$/, "");
        if (kept.length === text.length) return;
        const boundaries = new Set(graphemesOf(text).map((_, index, all) => all.slice(0, index + 1).join("").length));
        expect(
          kept.length === 0 || (boundaries.has(kept.length) && !joinsNext(text, kept.length)),
          `${text} at ${max}: ${kept}`,
        ).toBe(true);
      }),
    );
  });

  it("reads only the head of a long text: a 2 MB title costs what a short one does", () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, "segment");
    try {
      boundedText("ສະມາທິ ".repeat(300_000), FIELD_BOUNDS.titleChars);
      expect(segment).toHaveBeenCalledTimes(1);
      expect(segment.mock.calls[0]![0].length).toBeLessThanOrEqual(FIELD_BOUNDS.titleChars + 8);
    } finally {
      segment.mockRestore();
    }
  });

  it("as plain characters never ends in half a surrogate pair", () => {
    const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
    const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
    /** The cut splits no pair: it may end in a lone high surrogate only when the text had one there too. */
    const expectWholePairs = (text: string, max: number) => {
      const bounded = boundedChars(text, max);
      expect(bounded.length).toBeLessThanOrEqual(max);
      expect(text.startsWith(bounded)).toBe(true);
      if (bounded.length < text.length && isHigh(bounded.charCodeAt(bounded.length - 1)))
        expect(isLow(text.charCodeAt(bounded.length))).toBe(false);
    };
    expect(boundedChars("a𐀀", 2)).toBe("a");
    // A lone high surrogate, then a pair: the cut keeps the lone one and leaves the pair whole.
    expect(boundedChars("\ud800𐀀", 2)).toBe("\ud800");
    fc.assert(fc.property(anyText, fc.integer({ min: 1, max: 300 }), expectWholePairs));
  });
});

describe("keywords", () => {
  it("are at most a group's worth, each within its bound, without repeats in any case, in their order", () => {
    const keyword = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ minLength: 90, maxLength: 300 }),
      fc.constantFrom("Zen", "zen", "ZEN", " ", "瞑想"),
    );
    fc.assert(
      fc.property(fc.array(keyword, { maxLength: 400 }), (keywords) => {
        const value = keywords.join(",");
        const split = splitKeywords(value);
        expect(split.length).toBeLessThanOrEqual(FIELD_BOUNDS.keywordsPerGroup);
        for (const kept of split) {
          expect(kept.length).toBeLessThanOrEqual(FIELD_BOUNDS.keywordChars);
          expect(kept).toBe(kept.trim());
          expect(kept).not.toBe("");
          expect(kept).not.toContain(",");
        }
        expect(new Set(split.map((kept) => kept.toLowerCase())).size).toBe(split.length);
      }),
    );
  });

  it("read from a field of 150,000 only as far as a group's worth", () => {
    const many = Array.from({ length: 150_000 }, (_, index) => `k${index}`).join(", ");
    expect(splitKeywords(many)).toEqual(
      Array.from({ length: FIELD_BOUNDS.keywordsPerGroup }, (_, index) => `k${index}`),
    );
    // A field of one repeated keyword is read only a few times a group's worth of parts.
    expect(splitKeywords("zen, ".repeat(400_000))).toEqual(["zen"]);
  });
});

/** Any value a backend may put in a text field: text of any size, or another type. */
const fieldValue = fc.oneof(
  anyText,
  fc
    .tuple(fc.constantFrom("T", "瞑想, ", '"<&', "a\u0301", "k, "), fc.integer({ min: 1, max: 200_000 }))
    .map(([piece, times]) => piece.repeat(times)),
  fc.constantFrom(null, undefined),
);

describe("an article reply, every field generated", () => {
  it("is read into an article whose every field is within its bound, or refused", () => {
    fc.assert(
      fc.property(
        fc.record({
          metaTitle: fieldValue,
          metaDescription: fieldValue,
          date: fieldValue,
          blog: fieldValue,
          pinterestImageLink: fieldValue,
          youtubeShortsUrl: fieldValue,
          shortTailKeywords: fieldValue,
          longTailKeywords: fieldValue,
        }),
        (reply) => {
          const read = articleSchema.safeParse(reply);
          if (!read.success) {
            // Only a missing or blank title refuses an article.
            expect(typeof reply.metaTitle !== "string" || reply.metaTitle.trim() === "").toBe(true);
            return;
          }
          const article = read.data;
          expect(article.metaTitle.length).toBeLessThanOrEqual(FIELD_BOUNDS.titleChars);
          expect(article.metaDescription.length).toBeLessThanOrEqual(FIELD_BOUNDS.descriptionChars);
          expect(article.date.length).toBeLessThanOrEqual(FIELD_BOUNDS.dateChars);
          expect(article.blog.length).toBeLessThanOrEqual(FIELD_BOUNDS.bodyChars);
          const short = splitKeywords(article.shortTailKeywords);
          const long = splitKeywords(article.longTailKeywords);
          expect(short.length + long.length).toBeLessThanOrEqual(2 * FIELD_BOUNDS.keywordsPerGroup);
          // Bounded once: reading the bounded keywords again gives the same, and no keyword shows twice.
          expect(short.join(", ")).toBe(article.shortTailKeywords ?? "");
          expect(new Set([...short, ...long].map((keyword) => keyword.toLowerCase())).size).toBe(
            short.length + long.length,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps an ordinary article as it is", () => {
    const reply = {
      metaTitle: "Zazen",
      metaDescription: "Sitting.",
      date: "2024-01-05",
      blog: "Body.",
      shortTailKeywords: "zen, zazen",
      longTailKeywords: "zen for beginners, Zen",
    };
    expect(articleSchema.parse(reply)).toEqual({
      ...reply,
      longTailKeywords: "zen for beginners",
      pinterestImageLink: undefined,
      youtubeShortsUrl: undefined,
    });
  });
});

describe("a list reply, every field of an entry generated", () => {
  it("keeps each entry's title, description, date and id within their bounds", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.oneof(fieldValue, fc.integer()),
            metaTitle: fieldValue,
            metaDescription: fieldValue,
            date: fieldValue,
          }),
          { maxLength: 12 },
        ),
        (entries) => {
          const read = readListReply({
            blogs: entries.map((entry, index) => ({ ...entry, slug: `entry-${index}` })),
            total: entries.length,
          });
          expect(read.success).toBe(true);
          if (!read.success) return;
          for (const entry of read.data.blogs) {
            expect(entry.id.length).toBeLessThanOrEqual(FIELD_BOUNDS.idChars);
            expect(entry.metaTitle.length).toBeLessThanOrEqual(FIELD_BOUNDS.titleChars);
            expect(entry.metaDescription.length).toBeLessThanOrEqual(FIELD_BOUNDS.descriptionChars);
            expect((entry.date ?? "").length).toBeLessThanOrEqual(FIELD_BOUNDS.dateChars);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("an article body's share of its page", () => {
  const inProcess: RenderMarkdown = async (markdown, plain = "") => ({
    html: markdown ? renderMarkdown(markdown) : "",
    words: markdownWords(markdown) + markdownWords(plain),
  });
  /** Bodies whose HTML is many times their markdown: quotes, markup written as entities, links. */
  const costly = fc
    .tuple(
      fc.constantFrom('"', "<", "&", "'", "[a](/N) ", "<b>a</b> ", `${'"'.repeat(200)}\n\n`, "> ", "word "),
      fc.integer({ min: 1000, max: 400_000 }),
    )
    .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

  it("stays within BODY_PAGE_BYTES, however many times longer HTML writes it", async () => {
    await fc.assert(
      fc.asyncProperty(costly, async (markdown) => {
        const body = await renderArticleBody(markdown, inProcess);
        expect(pageBytesOf(body.html)).toBeLessThanOrEqual(BODY_PAGE_BYTES);
        expect(body.html.length).toBeGreaterThan(0);
      }),
      { numRuns: 25 },
    );
    // 25 bodies of up to 400,000 characters rendered: over the default 5 s beside the server tests on two busy cores.
  }, 60_000);

  it("counts the bytes of the HTML and of its copy in the page's data, exactly as the page writes them", () => {
    // The loaders' data: turbo-stream's JSON, in a JSON string, in a script with & < > escaped (app/entry.server.tsx).
    const inPage = (html: string) =>
      Buffer.byteLength(html) + Buffer.byteLength(escapeScriptData(JSON.stringify(JSON.stringify(html)))) - 6;
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom(
              "<",
              ">",
              "&",
              '"',
              "\\",
              "\n",
              "\t",
              "\u0001",
              "\u2028",
              "瞑",
              "é",
              "👩",
              "\ud800",
              "\udc00",
              "a",
            ),
            fc.string({ unit: "binary", maxLength: 1 }),
          ),
        }),
        (html) => {
          expect(pageBytesOf(html)).toBe(inPage(html));
        },
      ),
      { numRuns: 500 },
    );
  }, 30_000); // 500 strings of any script, encoded twice each: more than the default 5 s on a busy machine, though it is no timing test.
});
