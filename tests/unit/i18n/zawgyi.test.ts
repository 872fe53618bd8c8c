import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import fc from "fast-check";
import myanmarTools from "myanmar-tools";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FIELD_BOUNDS } from "~/blog/field-bounds";
import { createHttpSource } from "~/blog/http-source.server";
import { articleSchema, readListReply } from "~/blog/schema.server";
import {
  convertZawgyi,
  isZawgyi,
  looksLikeUnicodeBurmese,
  myanmarToConvert,
  unicodeBurmese,
  zawgyiProbability,
} from "~/i18n/zawgyi.server";
import { readReplyText } from "~/blog/schema.server";
import { FAKE_TOKEN, startFakeBackend } from "../../support/fake-backend.mjs";

// Burmese written in Zawgyi is read as Unicode, and Unicode is never converted (docs/decisions/046).

/**
 * Real Zawgyi with its Unicode, from myanmar-tools' own tests and test data: the title of the Universal
 * Declaration of Human Rights, a line of a government news page, and words every Burmese writer types.
 */
const SAMPLES: [zawgyi: string, unicode: string][] = [
  ["အျပည္ျပည္ဆိုင္ရာ လူ႔အခြင့္အေရး ေၾကညာစာတမ္း", "အပြည်ပြည်ဆိုင်ရာ လူ့အခွင့်အရေး ကြေညာစာတမ်း"],
  [
    "လုိင္းျဖင့္ ေနျပည္ေတာ္မွထြက္ခြာရာ နံနက္ ၈ နာရီခြဲတြင္ မြန္ျပည္နယ္ ေမာ္လၿမိဳင္ ေလဆိပ္ သို႔ ေရာက္ရွိၾကသည္။",
    "လိုင်းဖြင့် နေပြည်တော်မှထွက်ခွာရာ နံနက် ၈ နာရီခွဲတွင် မွန်ပြည်နယ် မော်လမြိုင် လေဆိပ် သို့ ရောက်ရှိကြသည်။",
  ],
  ["မဂၤလာပါ", "မင်္ဂလာပါ"],
  ["ေက်ာင္း", "ကျောင်း"],
];

/**
 * Buddhist words in Zawgyi as myanmar-tools' Unicode-to-Zawgyi conversion writes them, each checked below to
 * be detected as Zawgyi and to convert back.
 */
const MADE: [zawgyi: string, unicode: string][] = [
  ["ဗုဒၶဘာသာ", "ဗုဒ္ဓဘာသာ"],
  ["ဘုန္းႀကီးေက်ာင္း", "ဘုန်းကြီးကျောင်း"],
  ["တရားထိုင္ျခင္း", "တရားထိုင်ခြင်း"],
  ["ေမတၲာ", "မေတ္တာ"],
  ["ဓမၼ", "ဓမ္မ"],
  ["ကမၼ႒ာန္း", "ကမ္မဋ္ဌာန်း"],
  ["နိဗၺာန္", "နိဗ္ဗာန်"],
];

/** Unicode words the detector scores as Zawgyi (0.95 or more): converting them would corrupt them. */
const UNICODE_SCORED_AS_ZAWGYI = ["ဓမ္မ", "မေတ္တာ", "အနတ္တ", "ဒုက္ခ", "သိဒ္ဓတ္ထ", "ပရိယတ္တိ", "အဘိဓမ္မာ"];

/** Burmese that is the same in both encodings: sāsana, family, a year in Myanmar digits. */
const SAME_IN_BOTH = ["သာသနာ", "မိသားစု", "၂၀၂၄", "ကက"];

/** Unicode Burmese made of syllables as Unicode stores them (UTN 11): kinzi, consonant, stack, medials, vowel, final, tone. */
const consonant = fc.constantFrom(..."ကခဂဃငစဆဇဈညဋဌဍဎဏတထဒဓနပဖဗဘမယရလဝသဟဠအ");
const syllable = fc
  .tuple(
    fc.constantFrom("", "", "", "င်္"),
    consonant,
    fc.constantFrom("", "", "", ..."ကခဂဃစဆဇဈဋဌဍဎဏတထဒဓနပဖဗဘမလသ".split("").map((stacked) => `္${stacked}`)),
    fc.constantFrom("", "", "ျ", "ြ", "ွ", "ှ", "ျွ", "ြွ", "ွှ", "ျှ"),
    fc.constantFrom("", "ာ", "ါ", "ိ", "ီ", "ု", "ူ", "ေ", "ဲ", "ော", "ေါ", "ို", "ံ", "ုံ", "ော်"),
    fc.constantFrom("", "", "က်", "င်", "စ်", "ည်", "တ်", "န်", "ပ်", "မ်", "ယ်", "ဉ်", "င့်"),
    fc.constantFrom("", "့", "း"),
  )
  .map((parts) => parts.join(""));
const unicodeBurmeseWord = fc.array(syllable, { minLength: 1, maxLength: 4 }).map((word) => word.join(""));
/** A word alone (a title, a keyword, a query: short text is what the detector misjudges most) or words. */
const unicodeBurmeseText = fc.oneof(
  unicodeBurmeseWord,
  fc
    .array(fc.oneof({ weight: 12, arbitrary: unicodeBurmeseWord }, fc.constantFrom("ဥ", "ဧ", "၂၀၂၄", "၏", "။", "၊")), {
      minLength: 2,
      maxLength: 12,
    })
    .map((words) => words.join(" ")),
);

const NO_MYANMAR = /[\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f]/;

describe("Burmese in Zawgyi", () => {
  it.each([...SAMPLES, ...MADE])("reads %s as %s", (zawgyi, unicode) => {
    expect(zawgyiProbability(zawgyi)).toBeGreaterThanOrEqual(0.95);
    expect(isZawgyi(zawgyi)).toBe(true);
    expect(unicodeBurmese(zawgyi)).toBe(unicode);
    expect(unicodeBurmese(unicode)).toBe(unicode);
  });

  it.each(MADE)("has %s as the Zawgyi of %s", (zawgyi, unicode) => {
    expect(new myanmarTools.ZawgyiConverter().unicodeToZawgyi(unicode)).toBe(zawgyi);
  });

  it("reads every line of myanmar-tools' Zawgyi test data as its Unicode, and leaves every Unicode line as it is", () => {
    const resources = path.join(
      path.dirname(createRequire(import.meta.url).resolve("myanmar-tools/package.json")),
      "resources",
    );
    const lines = (name: string) => readFileSync(path.join(resources, name), "utf8").split("\n");
    const zawgyi = [...lines("udhr_mya_zawgyi_out.txt"), ...lines("mmgov_zawgyi_src.txt")];
    const unicode = [...lines("udhr_mya_unicode_src.txt"), ...lines("mmgov_unicode_out.txt")];
    expect(zawgyi.length).toBe(unicode.length);
    const left: string[] = [];
    for (const [index, line] of unicode.entries()) {
      expect(unicodeBurmese(line)).toBe(line);
      // The converter orders some marks otherwise than the Unicode file: the same text once normalized.
      const read = unicodeBurmese(zawgyi[index]!);
      if (read.normalize("NFC") !== line.normalize("NFC")) left.push(zawgyi[index]!.trim());
    }
    expect(left).toEqual([
      // Two lines of one or two words are spelt as valid Unicode too: they stay as written.
      "စကားခ်ီး . . .",
      "အေထြေထြညီလာခံ က",
      // The converter reads a 4 (၄) at the end of a line as the letter ၎, as Zawgyi writers often type it.
      "အပိုဒ္ ၄",
      // The Zawgyi file has "မျွဖစ္ေစ" where the Unicode file has "မှဖြစ်စေ".
      expect.stringContaining("စာေပမျွဖစ္ေစ"),
    ]);
    expect(zawgyi.filter((line, index) => line !== unicode[index]).length).toBeGreaterThan(150);
  });

  it("never converts Unicode that the detector scores as Zawgyi: Pali words with stacked consonants", () => {
    for (const word of [...UNICODE_SCORED_AS_ZAWGYI, "မြန်မာ"]) {
      expect(unicodeBurmese(word), word).toBe(word);
      // What converting would do to it.
      expect(convertZawgyi(word), word).not.toBe(word);
    }
    for (const word of UNICODE_SCORED_AS_ZAWGYI) expect(zawgyiProbability(word), word).toBeGreaterThanOrEqual(0.95);
    expect(convertZawgyi("မြန်မာ")).toBe("မွနျမာ");
  });

  it("leaves text that is the same in both encodings as it is", () => {
    for (const text of SAME_IN_BOTH) {
      expect(unicodeBurmese(text)).toBe(text);
      expect(convertZawgyi(text)).toBe(text);
    }
  });

  it("converts only the Zawgyi of mixed text: its Burmese in Latin text, its Zawgyi paragraphs in a Unicode article", () => {
    expect(unicodeBurmese("Retreat at the ေက်ာင္း, 8 am")).toBe("Retreat at the ကျောင်း, 8 am");
    expect(unicodeBurmese("A ဓမ္မ talk at 8")).toBe("A ဓမ္မ talk at 8");
    const article = ["# ဗုဒ္ဓဘာသာ", "တရားထိုင်ခြင်း **ဘုန်းကြီးကျောင်း**", "> ဘုန္းႀကီးေက်ာင္း တရားထိုင္ျခင္း", "- Zen"].join("\n\n");
    expect(unicodeBurmese(article)).toBe(
      ["# ဗုဒ္ဓဘာသာ", "တရားထိုင်ခြင်း **ဘုန်းကြီးကျောင်း**", "> ဘုန်းကြီးကျောင်း တရားထိုင်ခြင်း", "- Zen"].join("\n\n"),
    );
  });

  it("leaves any text without Myanmar letters as it is, without asking the detector", () => {
    const detect = vi.spyOn(myanmarTools.ZawgyiDetector.prototype, "getZawgyiProbability");
    try {
      fc.assert(
        fc.property(
          fc
            .oneof(fc.string({ unit: "grapheme", maxLength: 200 }), fc.string({ unit: "binary", maxLength: 200 }))
            .filter((text) => !NO_MYANMAR.test(text)),
          (text) => {
            expect(unicodeBurmese(text)).toBe(text);
          },
        ),
        { numRuns: 500 },
      );
      expect(detect).not.toHaveBeenCalled();
    } finally {
      detect.mockRestore();
    }
  });

  it("leaves any Unicode Burmese as it is, however the detector scores it", () => {
    let scoredAsZawgyi = 0;
    fc.assert(
      fc.property(unicodeBurmeseText, (text) => {
        expect(looksLikeUnicodeBurmese(text)).toBe(true);
        expect(unicodeBurmese(text)).toBe(text);
        if (zawgyiProbability(text) >= 0.95 && convertZawgyi(text) !== text) scoredAsZawgyi++;
      }),
      { numRuns: 1000 },
    );
    // Without the spelling check, the detector alone would have corrupted some of them.
    expect(scoredAsZawgyi).toBeGreaterThan(0);
  });
});

describe("an article's fields in Zawgyi", () => {
  it("are read as Unicode: title, description, keywords and body of an article and of a list entry", () => {
    const [title, description, keyword, body] = [MADE[1]!, SAMPLES[0]!, MADE[0]!, SAMPLES[1]!];
    const article = articleSchema.parse({
      metaTitle: title[0],
      metaDescription: description[0],
      date: "2024-01-05",
      blog: `## ${title[0]}\n\n${body[0]}`,
      shortTailKeywords: `${keyword[0]}, Zen`,
      longTailKeywords: keyword[1],
    });
    expect(article.metaTitle).toBe(title[1]);
    expect(article.metaDescription).toBe(description[1]);
    expect(article.blog).toBe(`## ${title[1]}\n\n${body[1]}`);
    // The same keyword in both encodings is one keyword.
    expect(article.shortTailKeywords).toBe(`${keyword[1]}, Zen`);
    expect(article.longTailKeywords).toBeUndefined();
    const list = readListReply({
      blogs: [{ id: 1, slug: "a", metaTitle: title[0], metaDescription: description[0] }],
      total: 1,
    });
    expect(list.success && list.data.blogs[0]).toMatchObject({ metaTitle: title[1], metaDescription: description[1] });
  });

  it("stay within their bounds when converting lengthens them, and convert no more than the bound of each", () => {
    // Kinzi: one code point in Zawgyi, three in Unicode.
    const kinzi = "မဂၤလာပါ ";
    const convert = vi.spyOn(myanmarTools.ZawgyiConverter.prototype, "zawgyiToUnicode");
    try {
      const article = articleSchema.parse({
        metaTitle: kinzi.repeat(200_000),
        metaDescription: kinzi.repeat(200_000),
        blog: `${SAMPLES[1]![0]}\n`.repeat(30_000),
        shortTailKeywords: Array.from({ length: 1000 }, () => kinzi.repeat(40)).join(","),
      });
      expect(article.metaTitle.length).toBeLessThanOrEqual(FIELD_BOUNDS.titleChars);
      expect(article.metaTitle.startsWith("မင်္ဂလာပါ")).toBe(true);
      expect(article.metaDescription.length).toBeLessThanOrEqual(FIELD_BOUNDS.descriptionChars);
      expect(article.blog.length).toBeLessThanOrEqual(FIELD_BOUNDS.bodyChars);
      expect(article.blog.startsWith(SAMPLES[1]![1])).toBe(true);
      const converted = convert.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
      // Keywords are converted as they are read: up to ten times a group's worth of parts (keywords.ts).
      const bounds =
        FIELD_BOUNDS.titleChars +
        FIELD_BOUNDS.descriptionChars +
        FIELD_BOUNDS.bodyChars +
        FIELD_BOUNDS.keywordChars * FIELD_BOUNDS.keywordsPerGroup * 10;
      expect(converted).toBeLessThanOrEqual(bounds);
    } finally {
      convert.mockRestore();
    }
  }, 60_000);
});

describe("what a reply may cost to convert", () => {
  /** JSON as a backend that escapes every character beyond ASCII writes it (Python's json.dumps does). */
  const asciiJson = (value: unknown) =>
    JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  const piece = fc.constantFrom(
    ...SAMPLES.map(([zawgyi]) => zawgyi),
    ...MADE.map(([zawgyi]) => zawgyi),
    "ေ",
    "ျ",
    "မ",
    "တရား",
    "ဓမ္မ",
    " ",
    "\u00a0".repeat(40),
    "\u200b",
    "\n\n",
    "Zen ",
    "瞑想",
  );
  const reply = fc.record({
    metaTitle: fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => `t${parts.join("")}`),
    blog: fc.array(piece, { maxLength: 300 }).map((parts) => parts.join("")),
    shortTailKeywords: fc.array(piece, { maxLength: 20 }).map((parts) => parts.join(",")),
  });

  it("is counted before parsing at no less than what the converter is then given, written or escaped", () => {
    const convert = vi.spyOn(myanmarTools.ZawgyiConverter.prototype, "zawgyiToUnicode");
    try {
      fc.assert(
        fc.property(reply, fc.boolean(), (fields, escaped) => {
          const text = escaped ? asciiJson(fields) : JSON.stringify(fields);
          convert.mockClear();
          expect(readReplyText("article", text).ok).toBe(true);
          const given = convert.mock.calls.reduce((sum, [converted]) => sum + converted.length, 0);
          expect(given).toBeLessThanOrEqual(myanmarToConvert(text));
        }),
        { numRuns: 300 },
      );
    } finally {
      convert.mockRestore();
    }
    // 300 generated replies: a few seconds alone, more beside the server tests on two busy cores.
  }, 30_000);

  it("is nothing for Unicode Burmese or text without Burmese, written or escaped as Unicode is", () => {
    expect(myanmarToConvert(JSON.stringify({ blog: SAMPLES[1]![1].repeat(100) }))).toBe(0);
    expect(myanmarToConvert(asciiJson({ blog: "Zen 瞑想 ".repeat(1000) }))).toBe(0);
  });
});

describe("a reply with Burmese", () => {
  let backend: Awaited<ReturnType<typeof startFakeBackend>>;
  const body = (text: string) => `${text}\n\n`.repeat(60);
  beforeAll(async () => {
    const article = (slug: string, blog: string) => ({
      id: slug,
      slug,
      metaTitle: slug,
      metaDescription: "",
      date: "2024-01-05",
      blog,
    });
    backend = await startFakeBackend({
      content: [
        article("zawgyi", body(SAMPLES[1]![0])),
        article("unicode", body(SAMPLES[1]![1])),
        article("short", MADE[1]![0]),
      ],
    });
  });
  afterAll(() => backend.close());

  it("is read in the worker when it may need more converting than takes a few milliseconds, else where it was", async () => {
    const inWorker: string[] = [];
    const source = createHttpSource({
      baseUrl: backend.url,
      token: FAKE_TOKEN,
      timeoutMs: 5000,
      readInWorker: async (kind, text) => {
        inWorker.push(text.slice(0, 40));
        const { readReplyText } = await import("~/blog/schema.server");
        return readReplyText(kind, text);
      },
    });
    expect((await source.article("zawgyi"))?.blog).toBe(body(SAMPLES[1]![1]));
    expect(inWorker).toHaveLength(1);
    expect((await source.article("unicode"))?.blog).toBe(body(SAMPLES[1]![1]));
    expect((await source.article("short"))?.blog).toBe(MADE[1]![1]);
    expect(inWorker).toHaveLength(1);
  });
});
