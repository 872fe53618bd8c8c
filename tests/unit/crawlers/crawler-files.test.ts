import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLines, shareImageSvg, splitLines } from "~/crawlers/share-image";
import { MARKS } from "~/site/traditions";
import {
  articlePartCount,
  listPageCount,
  listPagesOfPart,
  parsePartParam,
  sitemapIndexXml,
  urlsetXml,
} from "~/crawlers/sitemap";

describe("sitemap parts", () => {
  it("cover 100 articles each, ten list pages, and nothing is left over", () => {
    expect(articlePartCount(0)).toBe(0);
    expect(articlePartCount(100)).toBe(1);
    expect(articlePartCount(101)).toBe(2);
    expect(articlePartCount(100_000)).toBe(1000);
    expect(listPagesOfPart(1)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(listPagesOfPart(3)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(listPageCount(0)).toBe(1);
    expect(listPageCount(23)).toBe(3);
    expect(listPageCount(10_000_000)).toBe(10_000);
  });

  it("take ?part= only as one plain positive number", () => {
    const part = (query: string) => parsePartParam(new URLSearchParams(query));
    expect(part("part=1")).toBe(1);
    expect(part("part=1000")).toBe(1000);
    for (const bad of [
      "",
      "part=",
      "part=0",
      "part=-1",
      "part=01",
      "part=1.5",
      "part=x",
      "part=1&part=2",
      "part=9999999",
    ])
      expect(part(bad), bad).toBeUndefined();
  });

  it("escape what they list", () => {
    expect(urlsetXml([{ loc: "https://a.test/blog?page=2&x=<y>", lastmod: "2024-01-05T00:00:00.000Z" }])).toContain(
      "<url><loc>https://a.test/blog?page=2&amp;x=&lt;y&gt;</loc><lastmod>2024-01-05T00:00:00.000Z</lastmod></url>",
    );
    expect(sitemapIndexXml(["https://a.test/s.xml?a=1&b=2"])).toContain(
      "<sitemap><loc>https://a.test/s.xml?a=1&amp;b=2</loc></sitemap>",
    );
  });
});

describe("share image text", () => {
  it("splits a name into lines with the longest as short as it can be", () => {
    expect(splitLines("Zen Buddhism", 1)).toEqual(["Zen Buddhism"]);
    expect(splitLines("Chan Practice Center of the Greater Northern Valley", 3)).toEqual([
      "Chan Practice Center",
      "of the Greater",
      "Northern Valley",
    ]);
    expect(splitLines("One", 3)).toEqual(["One"]);
    expect(fitLines("Zen Buddhism", 12, 3)).toEqual(["Zen Buddhism"]);
    expect(fitLines("Chan Practice Center", 14, 3)).toEqual(["Chan Practice", "Center"]);
    expect(fitLines("Chan Practice Center", 12, 3)).toEqual(["Chan", "Practice", "Center"]);
  });

  it("draws the site's name as given, in any script, split only between words", () => {
    const unescape = (text: string) =>
      text
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, "&");
    const drawnLines = (svg: string) =>
      [...svg.matchAll(/<text [^>]*font-weight="bold"[^>]*>([^<]*)<\/text>/g)].map((match) => unescape(match[1]!));
    /** The name drawn whole, in order, each line break at a space or at a word boundary that Intl.Segmenter finds. */
    const expectDrawnAsGiven = (name: string) => {
      const boundaries = new Set(
        [...new Intl.Segmenter("en", { granularity: "word" }).segment(name)].map(({ index }) => index),
      );
      let at = 0;
      for (const [index, line] of drawnLines(shareImageSvg(name, "Tagline", MARKS.zen)).entries()) {
        if (index > 0 && name[at] === " ") at += 1;
        else if (index > 0)
          expect(boundaries.has(at), `a break inside a word of ${JSON.stringify(name)} at ${at}`).toBe(true);
        expect(name.slice(at, at + line.length), `line ${index} of ${JSON.stringify(name)}`).toBe(line);
        at += line.length;
      }
      expect(at, `all of ${JSON.stringify(name)} drawn`).toBe(name.length);
    };
    for (const name of [
      "Tịnh Độ Phật Giáo",
      "วัดป่าสันติธรรม",
      "禅の道場 静けさ",
      "정토 불교 🙏🏽",
      "Sangha 👨‍👩‍👧 “ensō” — 𠮷野",
      "! !! 𚿰⺀⺀ !⺀⺀",
    ]) {
      expectDrawnAsGiven(name);
    }
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }), (text) => {
        const name = text.trim().split(/\s+/).join(" ");
        fc.pre(name.length > 0);
        expectDrawnAsGiven(name);
      }),
    );
  });

  it("escapes the site's name in the SVG", () => {
    const svg = shareImageSvg(`A&B's <Zen>`, "Tagline", MARKS.zen);
    expect(svg).toContain(">A&amp;B&apos;s &lt;Zen&gt;</text>");
    expect(svg).not.toContain("<Zen>");
  });
});
