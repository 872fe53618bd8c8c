import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldWord } from "~/search/folding";
import { editDistance, suggestWord } from "~/search/suggest";
import { foldedText, matchExpression, MAX_QUERY_WORDS, queryWords, segmentRun, spacedText, words } from "~/search/tokenize";

describe("the tokenizer", () => {
  it("finds the words of Thai, Japanese and Chinese, written without spaces", () => {
    expect(words("ฝึกสมาธิทุกวันช่วยให้จิตใจสงบ")).toEqual(expect.arrayContaining(["สมาธิ", "จิตใจ", "สงบ"]));
    expect(words("毎朝の瞑想で心を調える。")).toEqual(expect.arrayContaining(["瞑想", "心"]));
    expect(words("禪宗的歷史很長")).toContain("歷史");
    expect(words("Thiền và thơ, Zen-Buddhismus")).toEqual(["Thiền", "và", "thơ", "Zen", "Buddhismus"]);
  });

  it("keeps the text as written, with an invisible break between the words of unspaced scripts", () => {
    const spaced = spacedText("瞑想の方法");
    expect(spaced.replaceAll("\u200b", "")).toBe("瞑想の方法");
    expect(spaced.split("\u200b")).toContain("瞑想");
  });

  it("splits long runs in pieces without losing or doubling a word", () => {
    const sentence = "ฝึกสมาธิทุกวันช่วยให้จิตใจสงบ";
    const run = sentence.repeat(40);
    const pieces = segmentRun(run);
    expect(pieces.join("")).toBe(run);
    // Nearly the words the segmenter finds in the whole run at once (its dictionary reads the context).
    const whole = [...new Intl.Segmenter("und", { granularity: "word" }).segment(run)].filter((word) => word.isWordLike).map((word) => word.segment);
    const found = new Set(pieces.map((word, index) => `${word}@${pieces.slice(0, index).join("").length}`));
    const agreeing = whole.filter((word, index) => found.has(`${word}@${whole.slice(0, index).join("").length}`));
    expect(agreeing.length / whole.length).toBeGreaterThan(0.97);
  });

  it("folds accents, variant characters and transliterations to one spelling", () => {
    expect(foldWord("Thiền")).toBe("thien");
    expect(foldWord("Đạo")).toBe("dao");
    expect(foldWord("禪")).toBe(foldWord("禅"));
    expect(foldWord("佛")).toBe(foldWord("仏"));
    expect(foldWord("禪宗")).toBe(foldWord("禅宗"));
    expect(foldWord("dhamma")).toBe(foldWord("Dharma"));
    expect(foldWord("nibbāna")).toBe(foldWord("nirvana"));
    expect(foldWord("Nhất")).toBe("nhat");
  });

  it("puts folded spellings and Korean syllable pairs in the hidden column, and nothing for plain words", () => {
    expect(foldedText("the Dhamma of 禪 and Đạo").split(" ")).toEqual(["dharma", "禅", "dao"]);
    expect(foldedText("불교명상을")).toBe("불교 교명 명상 상을");
    expect(foldedText("Thiền and zen")).toBe("");
  });

  it("turns any query into quoted words, so nothing typed is search syntax", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: "grapheme" }), (query) => {
        const expression = matchExpression(queryWords(query));
        // Outside quotes there are only operators, brackets and prefix stars.
        const outside = expression.replace(/"(?:[^"]|"")*"/g, "");
        expect(outside).toMatch(/^[\s()*]*(?:(?:AND|OR)[\s()*]*)*$/);
      }),
    );
    expect(queryWords(Array.from({ length: 50 }, (_, index) => `word${index}`).join(" "))).toHaveLength(MAX_QUERY_WORDS);
  });

  it("suggests the closest indexed word", () => {
    expect(editDistance("meditaton", "meditation", 2)).toBe(1);
    expect(editDistance("teh", "the", 2)).toBe(1);
    const vocabulary = ["meditation", "medicine", "metta", "mind"].map((term) => ({ term, doc: 3 }));
    const near = (from: string, to: string) => vocabulary.filter(({ term }) => term >= from && term < to);
    expect(suggestWord("meditaton", near)).toBe("meditation");
    expect(suggestWord("mxditation", near), "a typo in the second letter").toBe("meditation");
    expect(suggestWord("zzzzzz", near)).toBeUndefined();
  });
});
