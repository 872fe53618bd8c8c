// Article replies whose fields, not only the body, are as costly as a hostile backend can make them within
// the reply cap: for the tests (tests/server/hostile-fields.test.ts) and the benchmark (scripts/bench-content.mjs).
// A reply is made as JSON text, so that shapes JSON.stringify cannot make (a million nested arrays) can be sent.
import fc from "fast-check";
import { REPLY_CAP } from "./hostile-markdown.mjs";

/** The fields of an article reply (site-spec §3). */
export const ARTICLE_FIELDS = [
  "metaTitle",
  "metaDescription",
  "date",
  "blog",
  "pinterestImageLink",
  "youtubeShortsUrl",
  "shortTailKeywords",
  "longTailKeywords",
];

/** An ordinary reply's fields, as JSON texts: what a field keeps when another one is the hostile one. */
export const ordinaryFields = {
  metaTitle: JSON.stringify("An ordinary title"),
  metaDescription: JSON.stringify("An ordinary description."),
  date: JSON.stringify("2024-12-31"),
  blog: JSON.stringify("An ordinary body.\n\nWith a second paragraph."),
  pinterestImageLink: "null",
  youtubeShortsUrl: "null",
  shortTailKeywords: JSON.stringify("zen, meditation"),
  longTailKeywords: JSON.stringify("zen meditation for beginners"),
};

/** Pieces of text repeated into huge strings: scripts, marks that join into one grapheme, markup, escapes. */
const unit = fc.constantFrom(
  "x",
  "word ",
  "瞑想",
  "สมาธิ",
  "ສະມາທິ",
  "မြန်မာ",
  "བོད་",
  "\u0301",
  "a\u0301",
  "👩‍👩‍👧‍👦",
  "🇯🇵",
  "\u200d",
  "\u202e",
  "\ud800",
  "<script>alert(1)</script>",
  '"',
  "\\",
  "&amp;",
  "\u0000",
  "\n",
  ", ",
  ",",
  " , ",
  "</title>",
  "]]>",
  "-->",
  "\u2028",
);

/** `piece` repeated to fill about `bytes` bytes of the reply, as encoded in JSON (escapes and UTF-8 included). */
const repeated = (piece, bytes) =>
  piece.repeat(Math.max(1, Math.floor(bytes / (Buffer.byteLength(JSON.stringify(piece)) - 2))));

/** Distinct comma-separated keywords filling `length` characters: the shape that stalled every site. */
function manyKeywords(length, wordLength) {
  const parts = [];
  let size = 0;
  for (let index = 0; size < length; index += 1) {
    const keyword = `${"k".repeat(Math.max(0, wordLength - String(index).length))}${index}`;
    parts.push(keyword);
    size += keyword.length + 2;
  }
  return parts.join(", ");
}

/** A field's value as JSON text, at most about `room` bytes of it: any JSON a backend can send. */
const hostileValue = (room) =>
  fc.oneof(
    // A huge string of one unit or a mixture.
    fc
      .record({
        piece: fc.array(unit, { minLength: 1, maxLength: 4 }),
        share: fc.double({ min: 0.01, max: 1, noNaN: true }),
      })
      .map(({ piece, share }) => JSON.stringify(repeated(piece.join(""), Math.floor(room * share * 0.95)))),
    // Keywords by the thousand.
    fc
      .record({ wordLength: fc.integer({ min: 1, max: 40 }), share: fc.double({ min: 0.01, max: 1, noNaN: true }) })
      .map(({ wordLength, share }) => JSON.stringify(manyKeywords(Math.floor(room * share * 0.9), wordLength))),
    // The wrong type, as large as it can be: arrays and objects of many items, nesting, numbers.
    fc
      .integer({ min: 1, max: 200_000 })
      .map((count) => `[${repeated("1,", Math.min(count * 2, room - 2)).replace(/,$/, "")}]`),
    fc
      .integer({ min: 1, max: 100_000 })
      .map(
        (count) =>
          `{${Array.from({ length: Math.min(count, Math.floor(room / 12)) }, (_, index) => `"k${index}":${index}`).join(",")}}`,
      ),
    fc.integer({ min: 1, max: 1_000_000 }).map((depth) => {
      const levels = Math.min(depth, Math.floor(room / 2));
      return `${"[".repeat(levels)}${"]".repeat(levels)}`;
    }),
    fc.constantFrom("null", "true", "0", "-1e308", "[]", "{}", '""', '"   "'),
  );

/**
 * A whole reply as JSON text within the reply cap: every field ordinary but `field`, or with "all" every
 * field hostile at once, each then with an equal share of the room; sometimes with a crowd of unknown keys.
 * Without `field`, either.
 * @param {string} [field]
 */
export function hostileArticleReply(field) {
  const only =
    field === undefined
      ? fc.option(fc.constantFrom(...ARTICLE_FIELDS), { nil: undefined, freq: 2 })
      : fc.constant(field === "all" ? undefined : field);
  return fc
    .record({
      only,
      values: fc.array(hostileValue(REPLY_CAP - 1024), {
        minLength: ARTICLE_FIELDS.length,
        maxLength: ARTICLE_FIELDS.length,
      }),
      shared: fc.array(hostileValue(Math.floor(REPLY_CAP / (ARTICLE_FIELDS.length + 1))), {
        minLength: ARTICLE_FIELDS.length,
        maxLength: ARTICLE_FIELDS.length,
      }),
      extraKeys: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000 })),
    })
    .map(({ only, values, shared, extraKeys }) => {
      const fields = { ...ordinaryFields };
      if (only) fields[only] = values[ARTICLE_FIELDS.indexOf(only)];
      else ARTICLE_FIELDS.forEach((name, index) => (fields[name] = shared[index]));
      const members = Object.entries(fields).map(([name, value]) => `${JSON.stringify(name)}:${value}`);
      const extra = Array.from({ length: extraKeys }, (_, index) => `"extra${index}":${index}`);
      // The fields fit within the cap by construction; the unknown keys only where they fit too.
      const withExtra = extra.length > 0 && Buffer.byteLength(`{${[...members, ...extra].join(",")}}`) <= REPLY_CAP;
      return {
        description: `${only ? `${only} hostile` : "every field hostile"}${withExtra ? `, ${extraKeys} unknown keys` : ""}`,
        text: `{${(withExtra ? [...members, ...extra] : members).join(",")}}`,
      };
    });
}

/**
 * Named shapes, each as large as the cap allows: the ones found to stall the site, for the benchmark and fixed tests.
 * @returns {[string, string][]} each shape's name and reply
 */
export function knownFieldShapes() {
  const reply = (fields) =>
    `{${Object.entries({ ...ordinaryFields, ...fields })
      .map(([field, value]) => `${JSON.stringify(field)}:${value}`)
      .join(",")}}`;
  const half = Math.floor(REPLY_CAP / 2);
  return [
    // The issue's article: 150,000 distinct keywords and a 256 KB title.
    [
      "150,000 keywords and a 256 KB title",
      reply({
        metaTitle: JSON.stringify("T".repeat(256 * 1024)),
        shortTailKeywords: JSON.stringify(manyKeywords(half, 2)),
        longTailKeywords: JSON.stringify(manyKeywords(half / 2, 5)),
      }),
    ],
    ["a 2 MB title", reply({ metaTitle: JSON.stringify(repeated("Title ", REPLY_CAP - 400)) })],
    ["a 2 MB description of quotes", reply({ metaDescription: JSON.stringify(repeated('"<', half)) })],
    ["a title of one grapheme", reply({ metaTitle: JSON.stringify(`a${repeated("\u0301", REPLY_CAP - 400)}`) })],
    [
      "keywords of 1 MB each",
      reply({
        shortTailKeywords: JSON.stringify(repeated("瞑想", half - 200)),
        longTailKeywords: JSON.stringify(repeated("z", half - 200)),
      }),
    ],
    [
      "a body of quotes, which HTML writes six times longer",
      reply({ blog: JSON.stringify(repeated(`${'"'.repeat(200)}\n\n`, REPLY_CAP - 400)) }),
    ],
    ["a million nested arrays", reply({ blog: `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}` })],
    [
      "150,000 unknown keys",
      `{${Array.from({ length: 150_000 }, (_, index) => `"k${index}":1`).join(",")},"metaTitle":"t"}`,
    ],
    ["600,000 empty objects", reply({ blog: `[${Array(600_000).fill("{}").join(",")}]` })],
    [
      "every field 230 KB",
      reply(
        Object.fromEntries(
          ARTICLE_FIELDS.map((field) => [field, JSON.stringify(repeated("ສະມາທິ, ", Math.floor(REPLY_CAP / 9)))]),
        ),
      ),
    ],
  ];
}
