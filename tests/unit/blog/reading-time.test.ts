import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { createTranslator, type Translations } from "~/i18n/messages";
import { countWords, proseOf, readingDuration, readingMinutes, WORDS_PER_MINUTE } from "~/blog/reading-time";

const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index % 7}`).join(" ");

describe("reading time", () => {
  it("is the words over 230 a minute, rounded up, and at least a minute", () => {
    expect(WORDS_PER_MINUTE).toBe(230);
    expect(readingMinutes("")).toBe(1);
    expect(readingMinutes(words(1))).toBe(1);
    expect(readingMinutes(words(230))).toBe(1);
    expect(readingMinutes(words(231))).toBe(2);
    expect(readingMinutes(words(1150))).toBe(5);
    expect(readingMinutes(words(1151))).toBe(6);
  });

  it("counts the prose of the markdown, not its marks, link addresses or tags", () => {
    const markdown = [
      "## A heading here",
      "",
      "> A quoted line, with **bold** and _emphasis_ — and a dash.",
      "",
      "- one",
      "- two",
      "",
      "1. first",
      "",
      'A [link text](https://example.org/a/long/path?with=query "the linked page\'s title") and ![an image](/pin/x.jpg) <br /> <span class="x">end</span>.',
    ].join("\n");
    // A heading here (3), A quoted line with bold and emphasis and a dash (10), one two first (3),
    // A link text and an image end (7): 23 words.
    expect(readingMinutes(`${markdown}\n\n${words(230 - 23)}`)).toBe(1);
    expect(readingMinutes(`${markdown}\n\n${words(231 - 23)}`)).toBe(2);
  });

  it("counts numbers and words with apostrophes or hyphens once", () => {
    expect(countWords("Beginner's mind, loving-kindness: 108 bows in 2024.")).toBe(7);
  });

  it("counts words, not characters, in scripts written without spaces", () => {
    expect(countWords("我们今天学习佛法")).toBe(4);
    expect(countWords("坐禅的时候要放松身体。")).toBe(6);
    expect(countWords("座禅は自宅でも始めることができます。")).toBe(9);
    expect(countWords("การนั่งสมาธิ")).toBe(3);
    // Mixed with Latin script, and with Korean, which has spaces.
    expect(countWords("Zen 禅宗 practice")).toBe(3);
    expect(countWords("참선은 마음을 고요하게 합니다")).toBe(4);
  });

  it("counts Khmer, Lao and Burmese words by dictionary, Tibetan and Dzongkha by syllable, Sinhala, Nepali and Mongolian between spaces", () => {
    expect(countWords("ការធ្វើសមាធិ និងព្រះធម៌")).toBe(
      [...new Intl.Segmenter("km", { granularity: "word" }).segment("ការធ្វើសមាធិ និងព្រះធម៌")].filter(
        (part) => part.isWordLike,
      ).length,
    );
    expect(countWords("ການນັ່ງສະມາທິ")).toBe(3);
    expect(countWords("ဘုန်းကြီးကျောင်းသို့သွား")).toBe(3);
    // Four syllables, one word (bodhisattva), then a phrase of three after the shad and its space.
    expect(countWords("བྱང་ཆུབ་སེམས་དཔའ། སྒོམ་ཆེན་པོ།")).toBe(7);
    // Dzongkha puts a space between phrases, not between syllables alone.
    expect(countWords("ང་བཅས་ སྒོམ་ འབད་")).toBe(4);
    // Tibetan digits are a syllable of their own.
    expect(countWords("ལོ་ ༢༥༦༧")).toBe(2);
    expect(countWords("ශ්‍රී ලංකාවේ බුද්ධ ධර්මය")).toBe(4);
    expect(countWords("बुद्ध धर्म र संघ")).toBe(4);
    expect(countWords("Буддын шашны бясалгал")).toBe(3);
  });

  it("takes a long Chinese article as many words, not one, in any length of paragraph", () => {
    // 4 words in 8 characters; 2,000 times is 16,000 characters without a space.
    const paragraph = "我们今天学习佛法".repeat(2000);
    const counted = countWords(paragraph);
    expect(counted).toBeGreaterThanOrEqual(8000);
    // A piece cut inside a word counts it twice: at most one in a hundred-odd characters.
    expect(counted).toBeLessThan(8000 * 1.02);
    expect(readingMinutes(paragraph)).toBe(Math.ceil(counted / 230));
    expect(readingMinutes(paragraph)).toBeGreaterThanOrEqual(35);
  });

  it("reads as '5 min read' and as the ISO 8601 duration PT5M", () => {
    const english = createTranslator("en", JSON.parse(readFileSync("locales/en.json", "utf8")) as Translations);
    expect(english.plural("article.readingTime", 5)).toBe("5 min read");
    expect(readingDuration(5)).toBe("PT5M");
    expect(readingDuration(12)).toBe("PT12M");
  });
});

/** The regular expressions proseOf used before it became a linear scan: the reference for what it drops. */
function regexProse(markdown: string): string {
  return markdown
    .replace(/\]\([^)]*\)/g, "] ")
    .replace(/<[^>\n]*>/g, " ")
    .replace(/^\s*\d+[.)]\s/gm, " ");
}

describe("reading time of hostile bodies", () => {
  it("drops what the regular expressions dropped, word for word", () => {
    // Made of the characters the patterns turn on, so that links, tags and list numbers start, end and overlap.
    const markdownish = fc.string({
      unit: fc.constantFrom("a", "b", "1", "2", " ", "\t", "\n", ".", ")", "(", "]", "[", "<", ">", "/", "!"),
      maxLength: 80,
    });
    fc.assert(
      fc.property(markdownish, (markdown) => {
        expect(countWords(proseOf(markdown))).toBe(countWords(regexProse(markdown)));
      }),
      { numRuns: 3000 },
    );
  });

  // Each took from 2 s to over a minute with the regular expressions, which went back over the rest of the
  // text at every failed start; one pass each takes milliseconds, well within the test's time-out.
  it.each([
    ["unclosed link addresses", "](".repeat(200_000)],
    ["unclosed tags", "<".repeat(200_000)],
    ["tags that never end on their line", "<a ".repeat(300_000)],
    ["blank lines of spaces", " \n".repeat(100_000)],
  ])("reads %s in one pass", (_name, markdown) => {
    expect(readingMinutes(markdown)).toBeGreaterThanOrEqual(1);
  });
});
