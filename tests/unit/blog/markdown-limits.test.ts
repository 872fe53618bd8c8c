import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderArticleBody, type RenderMarkdown } from "~/blog/article-body.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { MARKDOWN_LIMITS, planBody, plainHtml } from "~/blog/markdown-limits";
import { renderMarkdown } from "~/blog/markdown.server";
import { markdownWords } from "~/blog/reading-time";

const ARTICLE =
  "## Sitting\n\nThe breath comes and goes, with [a link](https://example.org/a) and *some* **stress**.\n\n> A quote.\n\n- one\n  - two\n\n1. first\n2. second\n";

describe("the limits checked before markdown is parsed", () => {
  it("leave an ordinary article whole", () => {
    expect(planBody(ARTICLE)).toEqual({ formatted: ARTICLE, plain: "", cut: false });
    const long = `${ARTICLE}\n`.repeat(200);
    expect(planBody(long)).toEqual({ formatted: long, plain: "", cut: false });
  });

  it.each([
    ["block quotes", ">".repeat(MARKDOWN_LIMITS.maxDepth + 1)],
    ["list items on one line", "- ".repeat(MARKDOWN_LIMITS.maxDepth + 1)],
    ["numbered list items", "1. ".repeat(MARKDOWN_LIMITS.maxDepth + 1)],
    ["indentation", `${"  ".repeat(MARKDOWN_LIMITS.maxDepth + 1)}- x`],
  ])("cut the body before the first line nested deeper than the limit (%s), between blocks", (_name, deep) => {
    const body = `First paragraph.\n\nSecond paragraph,\n${deep} x\nand more.\n\nLast.`;
    expect(planBody(body)).toEqual({
      formatted: "First paragraph.\n\n",
      plain: `Second paragraph,\n${deep} x\nand more.\n\nLast.`,
      cut: false,
    });
    const shallow = `First paragraph.\n\n${">".repeat(MARKDOWN_LIMITS.maxDepth)} x\n`;
    expect(planBody(shallow).formatted).toBe(shallow);
  });

  it("cut the body where its markup would cost the parser more than the limit", () => {
    const paragraph = "Some [link](/a) and *stress* and `code` & <b>.\n\n"; // 8 units: [ ] * * ` ` & <
    const body = paragraph.repeat(2000);
    const { formatted, plain, cut } = planBody(body);
    expect(formatted.length).toBe(paragraph.length * Math.floor(MARKDOWN_LIMITS.maxUnits / 8));
    expect(formatted + plain).toBe(body);
    expect(cut).toBe(false);
  });

  it("count lines nested in containers by their depth, and lines that make the parser go back", () => {
    const units = (line: string, lines: number) => {
      const body = `${line}\n`.repeat(lines);
      return planBody(body, { ...MARKDOWN_LIMITS, maxUnits: 1000 }).formatted === body;
    };
    // A line inside four containers costs 10, so 100 of them are all that 1,000 units allow.
    expect(units("> > > > x", 100)).toBe(true);
    expect(units("> > > > x", 101)).toBe(false);
    // A setext heading's underline or a lazy line costs 10 more.
    expect(units("Title\n===", 100)).toBe(true);
    expect(units("Title\n===", 101)).toBe(false);
    expect(units("> quote\nlazy", 90)).toBe(true);
    expect(units("> quote\nlazy", 92)).toBe(false);
  });

  it("render at most the formatted length, and show at most the plain length, cut at a space", () => {
    const paragraph = `${"word ".repeat(199)}word\n\n`;
    const body = paragraph.repeat(Math.ceil((MARKDOWN_LIMITS.maxFormattedChars + 150_000) / paragraph.length));
    const { formatted, plain, cut } = planBody(body);
    expect(formatted.length).toBeLessThanOrEqual(MARKDOWN_LIMITS.maxFormattedChars);
    expect(formatted.length % paragraph.length).toBe(0);
    expect(plain.length).toBeLessThanOrEqual(MARKDOWN_LIMITS.maxPlainChars);
    expect(plain.length).toBeGreaterThan(MARKDOWN_LIMITS.maxPlainChars - 200);
    expect(plain.endsWith("word")).toBe(true);
    expect(cut).toBe(true);
  });

  it("keep any body within every limit, in one piece when nothing is left out", () => {
    const shapes = fc.oneof(
      fc.string({
        unit: fc.constantFrom(
          ">",
          "-",
          "*",
          "_",
          "[",
          "]",
          "(",
          ")",
          "`",
          "<",
          "&",
          "\\",
          " ",
          "  ",
          "\n",
          "\n\n",
          "1.",
          "=",
          "a",
          "word ",
        ),
        maxLength: 3000,
      }),
      fc
        .tuple(
          fc.constantFrom(">", "- ", "* ", "1. ", "  ", "[", "*", "_a", "[a](/N) ", "\n"),
          fc.integer({ min: 1, max: 40_000 }),
        )
        .map(([unit, times]) => unit.repeat(times)),
    );
    fc.assert(
      fc.property(shapes, (body) => {
        const { formatted, plain, cut } = planBody(body);
        expect(body.startsWith(formatted)).toBe(true);
        if (!cut) expect(formatted + plain).toBe(body);
        expect(formatted.length).toBeLessThanOrEqual(MARKDOWN_LIMITS.maxFormattedChars);
        expect(plain.length).toBeLessThanOrEqual(MARKDOWN_LIMITS.maxPlainChars);
        // What is left to the parser passes the check on its own.
        expect(planBody(formatted).formatted).toBe(formatted);
      }),
      { numRuns: 300 },
    );
  });

  it("show plain text as escaped paragraphs", () => {
    expect(plainHtml("One <b>&amp;</b>\nline.\n\n \n\n*Two*")).toBe(
      "<p>One &lt;b&gt;&amp;amp;&lt;/b&gt;\nline.</p>\n<p>*Two*</p>",
    );
    expect(plainHtml("Cut here", true)).toBe("<p>Cut here …</p>");
  });
});

describe("an article body", () => {
  const inProcess: RenderMarkdown = async (markdown, plain = "") => ({
    html: markdown ? renderMarkdown(markdown) : "",
    words: markdownWords(markdown) + markdownWords(plain),
  });

  it("is the rendered markdown when it is within the limits", async () => {
    expect(await renderArticleBody(ARTICLE, inProcess)).toEqual({
      html: renderMarkdown(ARTICLE),
      words: markdownWords(ARTICLE),
    });
  });

  it("is rendered up to the limit, then plain text, with a note", async () => {
    const deep = `${"> ".repeat(40)}deep <i>`;
    const body = await renderArticleBody(`${ARTICLE}\n${deep}\n`, inProcess);
    expect(body.html).toBe(`${renderMarkdown(`${ARTICLE}\n`)}\n<p>${"&gt; ".repeat(40)}deep &lt;i&gt;</p>`);
    expect(body.shortened).toEqual({ cut: false });
    expect(body.words).toBe(markdownWords(ARTICLE) + markdownWords(deep));
  });

  it("is plain text, with a note, when the render fails or runs out of time", async () => {
    const failing: RenderMarkdown = () => Promise.reject(new Error("the render took longer than 5000 ms"));
    const body = await renderArticleBody(ARTICLE, failing);
    expect(body.html).toContain(
      "<p>## Sitting</p>\n<p>The breath comes and goes, with [a link](https://example.org/a) and *some* **stress**.</p>",
    );
    expect(body.shortened).toEqual({ cut: false });
    expect(body.words).toBe(markdownWords(ARTICLE));
  });

  it("is not made when the server is too busy to render it, so that the page says to try again", async () => {
    const busy: RenderMarkdown = () => Promise.reject(new BlogUnavailableError("no render worker free"));
    await expect(renderArticleBody(ARTICLE, busy)).rejects.toBeInstanceOf(BlogUnavailableError);
  });

  it("is empty for an empty body, with no note", async () => {
    expect(await renderArticleBody("", inProcess)).toEqual({ html: "", words: 0 });
  });
});
