import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldWord } from "~/search/folding";
import { editDistance, suggestWord } from "~/search/suggest";
import {
  clusters,
  foldedText,
  matchExpression,
  MAX_QUERY_WORDS,
  queryWords,
  segmentRun,
  spacedText,
  words,
} from "~/search/tokenize";

/** Khmer and Burmese words with stacked consonants (coeng, virama) and marks, in sentences without spaces. */
const clusteredRun = fc
  .array(
    fc.constantFrom(
      "ម៉ាស្ទ័រ",
      "ព្រះពុទ្ធសាសនា",
      "សមាធិ",
      "ព្រះធម៌",
      "ស្រី",
      "ក្ស័យ",
      "ဗုဒ္ဓဘာသာ",
      "ကမ္မဋ္ဌာန်း",
      "သိဒ္ဓတ္ထ",
      "မင်္ဂလာ",
      "ကျွန်ုပ်",
      "တရား",
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((parts) => parts.join(""));

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
    const whole = [...new Intl.Segmenter("und", { granularity: "word" }).segment(run)]
      .filter((word) => word.isWordLike)
      .map((word) => word.segment);
    const found = new Set(pieces.map((word, index) => `${word}@${pieces.slice(0, index).join("").length}`));
    const agreeing = whole.filter((word, index) => found.has(`${word}@${whole.slice(0, index).join("").length}`));
    expect(agreeing.length / whole.length).toBeGreaterThan(0.97);
  });

  it("finds the words of Khmer, Lao and Burmese by dictionary, and of Tibetan and Dzongkha by syllable", () => {
    expect(words("ព្រះពុទ្ធសាសនា សមាធិ ព្រះធម៌")).toEqual(expect.arrayContaining(["សមាធិ", "ព្រះធម៌"]));
    expect(words("ການນັ່ງສະມາທິທຸກມື້")).toContain("ສະມາທິ");
    expect(words("ဘုန်းကြီးကျောင်းတွင်တရားထိုင်ခြင်း")).toEqual(expect.arrayContaining(["တရား", "ထိုင်"]));
    expect(words("བྱང་ཆུབ་སེམས་དཔའ།")).toEqual(["བྱང", "ཆུབ", "སེམས", "དཔའ"]);
    expect(words("འབྲུག་རྒྱལ་ཁབ་")).toEqual(["འབྲུག", "རྒྱལ", "ཁབ"]);
  });

  it("never splits a word inside a letter: no piece ends with a coeng or virama or starts with a mark", () => {
    // ICU's Khmer dictionary alone gives ម៉ាស្|ទ័|រ.
    expect(segmentRun("ម៉ាស្ទ័រ").join("|")).not.toContain("ស្|");
    fc.assert(
      fc.property(clusteredRun, (run) => {
        const pieces = segmentRun(run);
        expect(pieces.join("")).toBe(run);
        for (const piece of pieces) {
          expect(piece, run).not.toMatch(/[\u17d2\u1039]$/);
          expect(piece, run).not.toMatch(/^\p{M}/u);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("puts the letter clusters of Khmer, Lao and Burmese in the hidden column, and asks for a word's as a phrase", () => {
    // ICU splits ធ្វើសមាធិ as ធ្វើស|មា|ធិ: សមាធិ is not one of its words, but its clusters follow each other.
    expect(words("ធ្វើសមាធិ")).not.toContain("សមាធិ");
    expect(foldedText("ធ្វើសមាធិ")).toContain(clusters("សមាធិ").join(" "));
    expect(clusters("សមាធិ")).toEqual(["ស", "មា", "ធិ"]);
    expect(queryWords("សមាធិ")[0]!.spellings).toEqual(["សមាធិ", "ស មា ធិ"]);
    expect(foldedText("ຟັງທຳ")).toBe("ຟັ ງ ທຳ");
    // One cluster alone would match too much.
    expect(queryWords("ធម៌")[0]!.spellings).toEqual(["ធម៌", "ធ ម៌"]);
    expect(queryWords("ស")[0]!.spellings).toEqual(["ស"]);
  });

  it("asks for the syllables of a Tibetan word together, as a phrase", () => {
    expect(queryWords("བྱང་ཆུབ་")).toEqual([{ word: "བྱང་ཆུབ", spellings: ["བྱང ཆུབ"] }]);
    expect(matchExpression(queryWords("བྱང་ཆུབ"))).toBe('"བྱང ཆུབ"');
    // Words apart (a shad or a space between them) are words apart.
    expect(queryWords("ཆོས། སྒོམ").map((word) => word.word)).toEqual(["ཆོས", "སྒོམ"]);
    // Never as a prefix, a syllable would match too much.
    expect(matchExpression(queryWords("བྱང་ཆུབ ཆོས"), { loose: true })).toBe('"བྱང ཆུབ" OR "ཆོས"');
  });

  it("keeps a Sinhala conjunct one word and folds its joiner out, so that it is found typed either way", () => {
    expect(words("ශ්‍රී ලංකාව")).toEqual(["ශ්‍රී", "ලංකාව"]);
    expect(foldedText("ශ්‍රී ලංකාව")).toBe("ශ්රී");
    expect(foldedText("ශ්රී ලංකාව")).toBe("");
    expect(queryWords("ශ්‍රී")[0]!.spellings).toEqual(["ශ්‍රී", "ශ්රී"]);
    expect(queryWords("ශ්රී")[0]!.spellings).toEqual(["ශ්රී"]);
  });

  it("indexes and searches text as NFC, whatever order its marks were typed in", () => {
    // Burmese dot below and asat, Tibetan vowel signs: NFC puts them in one order.
    const typed = ["မြင\u103a\u1037မြတ်", "\u0f40\u0f72\u0f71"];
    for (const text of typed) {
      expect(spacedText(text)).toBe(spacedText(text.normalize("NFC")));
      expect(queryWords(text).flatMap((word) => word.spellings)).toEqual(
        queryWords(text.normalize("NFC")).flatMap((word) => word.spellings),
      );
      expect(spacedText(text)).not.toBe(text);
    }
  });

  it("folds Traditional Chinese to Simplified, split again into words as Simplified text is", () => {
    // The segmenter splits the two scripts otherwise: 很長 is one word, 很长 two.
    expect(words("歷史很長")).toEqual(["歷史", "很長"]);
    expect(words("历史很长")).toEqual(["历史", "很", "长"]);
    expect(foldedText("歷史很長").split(" ")).toEqual(["历史", "很", "长"]);
    expect(foldedText("历史很长")).toBe("");
    expect(queryWords("很長")[0]!.spellings).toEqual(["很長", "很 长"]);
    expect(foldWord("觀音菩薩")).toBe("观音菩萨");
    expect(foldWord("淨土")).toBe(foldWord("净土"));
  });

  it("reads a query typed in Zawgyi as Unicode, and one that reads as both, as both", () => {
    expect(queryWords("ဘုန္းႀကီးေက်ာင္း").map((word) => word.word)).toEqual(words("ဘုန်းကြီးကျောင်း"));
    // Unicode metta, spelt as valid Unicode and scored as Zawgyi: as written, or as Zawgyi read as Unicode.
    const metta = queryWords("မေတ္တာ");
    expect(metta.map((word) => word.word)).toEqual(["မေတ္တာ"]);
    expect(metta[0]!.spellings).toEqual(expect.arrayContaining([words("မေတ္တာ").join(" "), words("မတ်ေတာ").join(" ")]));
    expect(queryWords("ဗုဒ္ဓဘာသာ").flatMap((word) => word.spellings)).toEqual([
      ...words("ဗုဒ္ဓဘာသာ"),
      clusters("ဗုဒ္ဓဘာသာ").join(" "),
    ]);
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
    expect(queryWords(Array.from({ length: 50 }, (_, index) => `word${index}`).join(" "))).toHaveLength(
      MAX_QUERY_WORDS,
    );
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
