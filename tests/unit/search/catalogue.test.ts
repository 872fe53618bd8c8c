import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalogue, CatalogueArticle } from "~/search/catalogue";
import { openPostgresCatalogue } from "~/search/pg-catalogue.server";
import { createPool } from "~/database/postgres.server";
import { migrate } from "~/database/postgres-schema.server";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { joinsNext } from "~/blog/field-bounds";
import { isoDate } from "~/blog/dates";
import { textKey } from "~/search/text-key";
import { spacedText } from "~/search/tokenize";
import { postgresMissing, startPostgres } from "../../support/postgres.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "catalogue-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let names = 0;

/** A copy of a stored article (`from`) under another slug and date. */
type Copy = { from: string; slug: string; date: string };

/**
 * A store of catalogues: `open(name)` twice gives two handles on one catalogue, as two processes would have.
 * `copy` writes copies of stored articles straight into its tables, in order: 20,000 articles through
 * putArticle take a minute on PostgreSQL, their copies a second or two.
 */
type Store = {
  name: string;
  missing: boolean;
  setUp: () => Promise<void>;
  tearDown: () => Promise<void>;
  open: (name?: string) => Catalogue;
  copy: (name: string, copies: readonly Copy[]) => Promise<void>;
};

const sqlite: Store = {
  name: "SQLite",
  missing: false,
  setUp: async () => {},
  tearDown: async () => {},
  open: (name = `c${names++}`) => openSqliteCatalogue(path.join(dir, `${name}.sqlite`)),
  copy: async (name, copies) => {
    const db = new Database(path.join(dir, `${name}.sqlite`));
    const insert = db.prepare<[string, string, string | null, string]>(
      "INSERT INTO articles (slug, title, description, image, date, date_iso, keywords, entry_hash, body_hash, body_wanted) SELECT ?, title, description, image, ?, ?, keywords, entry_hash, body_hash, 0 FROM articles WHERE slug = ?",
    );
    const text = db.prepare<[number, string]>(
      "INSERT INTO texts (rowid, title, description, keywords, body, folded) SELECT ?, title, description, keywords, body, folded FROM texts WHERE rowid = (SELECT text_key FROM articles WHERE slug = ?)",
    );
    const key = db.prepare<[number, number]>("UPDATE articles SET text_key = ? WHERE id = ?");
    db.transaction(() => {
      for (const { from, slug, date } of copies) {
        const dateIso = isoDate(date) ?? null;
        const id = Number(insert.run(slug, date, dateIso, from).lastInsertRowid);
        text.run(textKey(id, dateIso), from);
        key.run(textKey(id, dateIso), id);
      }
    })();
    db.close();
  },
};

let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
let pool: pg.Pool | undefined;
const postgres: Store = {
  name: "PostgreSQL",
  missing: postgresMissing,
  setUp: async () => {
    server = await startPostgres();
    pool = createPool({ url: server.url, poolSize: 4 });
    await migrate(pool);
  },
  tearDown: async () => {
    await pool?.end().catch(() => {});
    await server?.stop();
  },
  open: (name = `c${names++}`) => openPostgresCatalogue(pool!, name),
  copy: async (name, copies) => {
    await pool!.query(
      `INSERT INTO articles (catalogue, slug, title, description, image, date, date_iso, keywords, entry_hash, body_hash, body_wanted, description_text, body_text, body_folded, doc, ranking)
       SELECT a.catalogue, c.slug, a.title, a.description, a.image, c.date, c.date_iso, a.keywords, a.entry_hash, a.body_hash, 0, a.description_text, a.body_text, a.body_folded, a.doc, a.ranking
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS c (source, slug, date, date_iso, n)
       JOIN articles a ON a.catalogue = (SELECT id FROM catalogues WHERE name = $1) AND a.slug = c.source
       ORDER BY c.n`,
      [
        name,
        copies.map((one) => one.from),
        copies.map((one) => one.slug),
        copies.map((one) => one.date),
        copies.map((one) => isoDate(one.date) ?? null),
      ],
    );
    // The word counts, as the writes keep them (suggestions, and the bounds of the ranking).
    await pool!.query("DELETE FROM terms WHERE catalogue = (SELECT id FROM catalogues WHERE name = $1)", [name]);
    await pool!.query(
      `INSERT INTO terms (catalogue, term, docs) SELECT a.catalogue, term, count(*) FROM articles a, unnest(tsvector_to_array(a.doc)) AS term
       WHERE a.catalogue = (SELECT id FROM catalogues WHERE name = $1) AND term NOT LIKE '#%' GROUP BY a.catalogue, term`,
      [name],
    );
    await pool!.query("ANALYZE articles");
  },
};

const article = (slug: string, fields: Partial<CatalogueArticle> = {}): CatalogueArticle => ({
  slug,
  title: `Title of ${slug}`,
  description: "A short description.",
  date: "2024-01-05",
  keywords: [],
  body: "Some plain words about nothing much.",
  ...fields,
});

const marked = (hit: { snippet: { text: string; mark: boolean }[] }) =>
  hit.snippet.filter((part) => part.mark).map((part) => part.text);

// One suite, both stores: the PostgreSQL catalogue must give what the SQLite file gives.
describe.each([sqlite, postgres])("the $name catalogue", (store) => {
  if (store.missing) {
    it.skip("needs PostgreSQL (apt-get install postgresql)", () => {});
    return;
  }
  const open = store.open;
  let catalogue: Catalogue;
  let ready: Promise<void>;
  beforeAll(async () => {
    await store.setUp();
    catalogue = open();
    ready = (async () => {
      await catalogue.putArticle(
        article("tho-va-thien", {
          title: "Thơ và Thiền",
          body: "Mỗi sáng chúng tôi ngồi Thiền trong chánh điện. Đạo Phật dạy về Thích Nhất Hạnh.",
        }),
      );
      await catalogue.putArticle(
        article("zazen", {
          title: "座禅の始め方",
          body: "毎朝の瞑想で心を調える。禪宗の歴史を学ぶ。",
          keywords: ["座禅", "Zen Retreat"],
        }),
      );
      await catalogue.putArticle(article("anapanasati", { title: "อานาปานสติ", body: "ฝึกสมาธิทุกวันช่วยให้จิตใจสงบ" }));
      await catalogue.putArticle(article("ganhwaseon", { title: "간화선", body: "불교명상을 배우는 하루" }));
      await catalogue.putArticle(
        article("pali", {
          title: "Reading the Pali canon",
          body: "The Buddha taught the Dhamma and the path to nibbāna.",
          keywords: ["zen retreat"],
        }),
      );
      // The nine new languages' scripts (docs/decisions/046).
      await catalogue.putArticle(
        article("khmer", { title: "ព្រះពុទ្ធសាសនា", body: "និកាយហ្សេន បង្រៀនអំពីការធ្វើសមាធិ និងស្តាប់ធម៌ ដោយម៉ាស្ទ័រ" }),
      );
      await catalogue.putArticle(article("lao", { title: "ພາວະນາ", body: "ການນັ່ງສະມາທິທຸກມື້ຊ່ວຍໃຫ້ຈິດໃຈສະຫງົບ ໄປວັດເພື່ອຟັງທຳ" }));
      await catalogue.putArticle(
        article("burmese", { title: "တရားထိုင်ခြင်း", body: "ဘုန်းကြီးကျောင်းတွင် မေတ္တာဘာဝနာ ပွားများကြသည်။" }),
      );
      // Burmese dot below before asat, as NFC orders them, and after, as typed: the same word.
      await catalogue.putArticle(article("burmese-nfc", { title: "မြင့်မြတ် ဓမ္မ", body: "ဓမ္မ" }));
      await catalogue.putArticle(article("burmese-typed", { title: "မြင\u103a\u1037မား ဓမ္မ", body: "ဓမ္မ" }));
      await catalogue.putArticle(article("tibetan-word", { title: "བྱང་ཆུབ་སེམས་དཔའི་སྤྱོད་པ།", body: "སྒོམ་ཆེན་པོ།" }));
      // The same two syllables, apart: north (བྱང་ཕྱོགས) and a verb.
      await catalogue.putArticle(article("tibetan-apart", { title: "བྱང་ཕྱོགས།", body: "ཆོས་ཉམས་སུ་ཆུབ་པ། སྒོམ་ཆེན་པོ།" }));
      await catalogue.putArticle(article("dzongkha", { title: "འབྲུག་རྒྱལ་ཁབ་ནང་ ཆོས་ལུགས་", body: "ང་བཅས་ སྒོམ་ འབད་" }));
      await catalogue.putArticle(article("sinhala-joined", { title: "ශ්‍රී ලංකාවේ බුද්ධ ධර්මය", body: "භාවනාව" }));
      await catalogue.putArticle(article("sinhala-unjoined", { title: "විද්යාව සහ ධර්මය", body: "භාවනාව" }));
      await catalogue.putArticle(article("traditional", { title: "觀音菩薩的慈悲", body: "禪修的歷史很長" }));
      await catalogue.putArticle(article("simplified", { title: "净土法门的修行", body: "念佛" }));
    })();
    await ready;
  }, 30_000);
  afterAll(() => store.tearDown(), 30_000);

  it.each([
    ["thien", "tho-va-thien"],
    ["Thiền", "tho-va-thien"],
    ["dao phat", "tho-va-thien"],
    ["Thich Nhat Hanh", "tho-va-thien"],
    ["瞑想", "zazen"],
    ["禅宗", "zazen"],
    ["สมาธิ", "anapanasati"],
    ["จิตใจ", "anapanasati"],
    ["명상", "ganhwaseon"],
    ["교명상", "ganhwaseon"],
    ["dharma", "pali"],
    ["nirvana", "pali"],
    // Khmer, Lao and Burmese by dictionary, and by letter clusters where the dictionary splits otherwise in
    // context (ធ្វើស|មា|ធិ, ដោ|យម៉ាស្ទ័រ, ស្តាប់ធម៌ and ຟັງທຳ as one word, မေတ္တာဘာဝနာ as one word).
    ["ព្រះពុទ្ធសាសនា", "khmer"],
    ["សមាធិ", "khmer"],
    ["ម៉ាស្ទ័រ", "khmer"],
    ["ធម៌", "khmer"],
    ["ສະມາທິ", "lao"],
    ["ຈິດໃຈ", "lao"],
    ["ທຳ", "lao"],
    ["ဘုန်းကြီးကျောင်း", "burmese"],
    // Burmese typed in Zawgyi, and Unicode that the detector scores as Zawgyi.
    ["ဘုန္းႀကီးေက်ာင္း", "burmese"],
    ["မေတ္တာ", "burmese"],
    ["မြင့်မြတ်", "burmese-nfc"],
    ["မြင\u103a\u1037မြတ်", "burmese-nfc"],
    ["မြင့်မား", "burmese-typed"],
    // A Tibetan word by its syllables together, not apart; Dzongkha alike.
    ["བྱང་ཆུབ", "tibetan-word"],
    ["བྱང་ཆུབ་སེམས", "tibetan-word"],
    ["རྒྱལ་ཁབ", "dzongkha"],
    // Sinhala with and without the zero-width joiner, either way.
    ["ශ්‍රී", "sinhala-joined"],
    ["ශ්රී", "sinhala-joined"],
    ["විද්‍යාව", "sinhala-unjoined"],
    ["විද්යාව", "sinhala-unjoined"],
    // Traditional and Simplified Chinese, either way.
    ["观音菩萨", "traditional"],
    ["觀音", "traditional"],
    ["历史", "traditional"],
    ["很长", "traditional"],
    ["淨土法門", "simplified"],
    ["念佛", "simplified"],
  ])("finds %s inside the text", async (query, slug) => {
    await ready;
    const results = await catalogue.search(query, 1, 10);
    expect(results.match).toBe("all");
    expect(results.hits.map((hit) => hit.slug)).toEqual([slug]);
  });

  it("marks the query's words in the snippet, without the word breaks it keeps", async () => {
    await ready;
    const [hit] = (await catalogue.search("thien", 1, 10)).hits;
    expect(marked(hit!)).toEqual(["Thiền"]);
    const [japanese] = (await catalogue.search("瞑想", 1, 10)).hits;
    expect(marked(japanese!)).toEqual(["瞑想"]);
    expect(japanese!.snippet.map((part) => part.text).join("")).toContain("毎朝の瞑想で心を調える。");
  });

  it("finds a Tibetan phrase in both articles that have it, and marks it whole, tshegs included", async () => {
    await ready;
    expect((await catalogue.search("སྒོམ་ཆེན", 1, 10)).hits.map((hit) => hit.slug).sort()).toEqual([
      "tibetan-apart",
      "tibetan-word",
    ]);
    const [hit] = (await catalogue.search("སྒོམ་ཆེན", 1, 10)).hits;
    expect(marked(hit!)).toEqual(["སྒོམ་ཆེན"]);
    const [sinhala] = (await catalogue.search("ශ්‍රී ලංකාවේ", 1, 10)).hits;
    expect(sinhala!.slug).toBe("sinhala-joined");
  });

  it("cuts snippets between whole letters: never inside a Sinhala conjunct, a Khmer or Burmese stack, a Tibetan syllable", async () => {
    const own = open();
    const letters = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    /** A place where the text may be cut: a grapheme boundary that does not leave a letter broken (field-bounds.ts). */
    const wholeAt = (text: string, at: number) =>
      at === 0 ||
      at === text.length ||
      ([...letters.segment(text)].some((part) => part.index === at) && !joinsNext(text, at));
    const word = fc.constantFrom(
      "ශ්‍රී",
      "විද්‍යාව",
      "ක්‍රියාව",
      "ප්‍රඥාව",
      "ධර්මය",
      "ស្ត្រី",
      "ព្រះធម៌",
      "ម៉ាស្ទ័រ",
      "ធ្វើសមាធិ",
      "ကမ္မဋ္ဌာန်း",
      "ဗုဒ္ဓဘာသာ",
      "བྱང་ཆུབ་སེམས་དཔའ།",
      "meditation",
    );
    let count = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 40, maxLength: 120 }), fc.nat(), async (words, pick) => {
        const slug = `letters${count++}`;
        const body = words.join(" ");
        await own.putArticle(article(slug, { title: slug, body }));
        const query = words[pick % words.length]!;
        const hit = (await own.search(`${query} ${slug}`, 1, 10)).hits.find((found) => found.slug === slug);
        expect(hit, query).toBeDefined();
        const shown = spacedText(body).replaceAll("\u200b", "");
        const inner = hit!.snippet
          .map((part) => part.text)
          .join("")
          .replace(/^…/, "")
          .replace(/…$/, "");
        const at = shown.indexOf(inner);
        expect(at, inner).toBeGreaterThanOrEqual(0);
        expect(wholeAt(shown, at) && wholeAt(shown, at + inner.length), inner).toBe(true);
      }),
      { numRuns: 30 },
    );
    own.close();
  }, 60_000);

  it("shows each result with a snippet of its own text", async () => {
    const own = open();
    await own.putArticle(article("first", { title: "Bell", body: "The bell of the first temple rings at dawn." }));
    await own.putArticle(article("second", { title: "Gong", body: "A bell and a gong in the second hall." }));
    await own.putArticle(article("third", { title: "Drum", body: "The drum of the third gate, then a bell." }));
    const { hits } = await own.search("bell", 1, 10);
    expect(hits.map((hit) => hit.slug)[0]).toBe("first");
    for (const hit of hits) expect(hit.snippet.map((part) => part.text).join(""), hit.slug).toContain(hit.slug);
    own.close();
  });

  it("ranks a word in the title above one in the body, counts and pages the results", async () => {
    const many = open();
    for (let index = 0; index < 25; index++)
      await many.putArticle(article(`a${index}`, { body: `Words about metta, number ${index}.` }));
    await many.putArticle(article("metta-title", { title: "Metta practice", body: "Loving kindness." }));
    const first = await many.search("metta", 1, 10);
    expect(first.total).toBe(26);
    expect(first.hits[0]!.slug).toBe("metta-title");
    const third = await many.search("metta", 3, 10);
    expect(third.hits).toHaveLength(6);
    const all = [1, 2, 3].map((page) => many.search("metta", page, 10));
    expect(new Set((await Promise.all(all)).flatMap((page) => page.hits.map((hit) => hit.slug))).size).toBe(26);
    many.close();
  });

  it("counts matches up to 1,000 and says when there are more", async () => {
    const big = open();
    for (let index = 0; index < 1005; index++)
      await big.putArticle(article(`b${index}`, { title: "Sitting", body: "breath" }));
    const results = await big.search("breath", 100, 10);
    expect(results).toMatchObject({ total: 1000, more: true });
    expect(results.hits).toHaveLength(10);
    expect((await big.search("sitting", 1, 10)).more).toBe(true);
    big.close();
  }, 30_000);

  it("suggests an indexed word, and matches any word or its start when no article has them all", async () => {
    await ready;
    const misspelt = await catalogue.search("Dhammma", 1, 10);
    expect(misspelt.total).toBe(0);
    expect(misspelt.suggestion).toBe("dhamma");
    const partly = await catalogue.search("canon unheardofword", 1, 10);
    expect(partly.match).toBe("any");
    expect(partly.hits.map((hit) => hit.slug)).toEqual(["pali"]);
    const prefix = await catalogue.search("Bud qqqqq", 1, 10);
    expect(prefix.hits.map((hit) => hit.slug)).toEqual(["pali"]);
  });

  it("takes any query as text: never an error", async () => {
    await ready;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 300, unit: "grapheme" }),
          fc.constantFrom(
            '"',
            "*",
            "NEAR(",
            "OR",
            "-",
            "\u0000",
            "AND NOT",
            "title:",
            "^x",
            "{a b}:c",
            "x".repeat(10_000),
          ),
        ),
        async (query) => {
          const results = await catalogue.search(query, 1, 10);
          expect(results.total).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it("lists keyword pages, newest first, and keyword counts", async () => {
    await ready;
    const page = await catalogue.keywordPage("zen-retreat", 1, 10);
    expect(page?.total).toBe(2);
    expect(page?.entries.map((entry) => entry.slug).sort()).toEqual(["pali", "zazen"]);
    expect(await catalogue.keywordPage("no-such-keyword", 1, 10)).toBeUndefined();
    expect((await catalogue.keywords()).find((keyword) => keyword.key === "zen-retreat")?.count).toBe(2);
  });

  it("suggests related articles by shared words, never the article itself", async () => {
    await ready;
    const related = await catalogue.related({ slug: "zazen", title: "座禅", keywords: ["zen retreat"] }, 3);
    expect(related[0]!.slug).toBe("pali");
    expect(related.map((entry) => entry.slug)).not.toContain("zazen");
    expect(related).toHaveLength(3);
  });

  it("weighs related articles sharing as many words by how often they are read to the end, and gives entries by slug", async () => {
    const own = open();
    await own.putArticle(article("two-new", { date: "2024-06-01", keywords: ["sesshin schedule"] }));
    await own.putArticle(article("two-old", { date: "2023-06-01", keywords: ["sesshin schedule"] }));
    await own.putArticle(article("one-word", { date: "2025-06-01", keywords: ["sesshin"] }));
    await own.putArticle(article("none-new", { date: "2025-01-01", keywords: ["tea"] }));
    await own.putArticle(article("none-old", { date: "2022-01-01", keywords: ["tea"] }));
    const about = { slug: "self", title: "Self", keywords: ["sesshin schedule"] };
    const rates: Record<string, number> = { "two-old": 0.9, "two-new": 0.1, "one-word": 1, "none-old": 0.8 };
    const slugsOf = (entries: { slug: string }[]) => entries.map((entry) => entry.slug);
    expect(slugsOf(await own.related(about, 3))).toEqual(["two-new", "two-old", "one-word"]);
    expect(slugsOf(await own.related(about, 3, (slug) => rates[slug] ?? 0.5))).toEqual([
      "two-old",
      "two-new",
      "one-word",
    ]);
    // After those sharing words, of the newest four (twice the count), the more often read to the end first:
    // none-old, older, is not among them.
    expect(
      slugsOf(await own.related({ ...about, keywords: ["nothing shared"] }, 2, (slug) => rates[slug] ?? 0.5)),
    ).toEqual(["one-word", "two-old"]);
    expect(slugsOf(await own.entries(["one-word", "no-such-article", "two-old"]))).toEqual(["one-word", "two-old"]);
    expect((await own.entries(["two-new"]))[0]).toMatchObject({ slug: "two-new", title: "Title of two-new" });
    expect(await own.entries([])).toEqual([]);
    own.close();
  });

  it("asks for the bodies of new and changed list entries only, keeps what it has across a reopen, and forgets removed articles", async () => {
    const file = `reopen${names++}`;
    const first = open(file);
    const entries = [1, 2, 3].map((index) => ({
      slug: `e${index}`,
      title: `Entry ${index}`,
      description: "About zazen.",
    }));
    expect(await first.putEntries(entries)).toEqual(["e1", "e2", "e3"]);
    expect((await first.search("zazen", 1, 10)).total).toBe(3);
    await first.putArticle(article("e1", { title: "Entry 1", description: "About zazen.", body: "Counting breaths." }));
    expect(await first.missingBodies(10)).toEqual(["e2", "e3"]);
    first.close();
    const second = open(file);
    expect(await second.putEntries(entries)).toEqual([]);
    expect(await second.putEntries([{ ...entries[0]!, title: "Entry 1, renamed" }])).toEqual(["e1"]);
    expect((await second.search("breaths", 1, 10)).hits.map((hit) => hit.slug)).toEqual(["e1"]);
    expect(await second.putArticle(article("e2", { title: "Entry 2", description: "About zazen." }))).toBe(true);
    expect(await second.putArticle(article("e2", { title: "Entry 2", description: "About zazen." }))).toBe(false);
    await second.remove(["e3"]);
    expect((await second.slugs()).sort()).toEqual(["e1", "e2"]);
    expect((await second.search("zazen", 1, 10)).total).toBe(2);
    second.close();
  });

  it("ranks every match up to 5,000, and beyond, title matches then the others, each among its newest 1,000 by date (3, 4,999, 5,001, 20,000 matches)", async () => {
    // docs/decisions/040 and 055. Every article has the same length in every column, so that bm25 and ts_rank
    // order them alike: the query's words in the title, then keywords, then description, then twice in the
    // body, then once; among equals the newest by day, then by arrival. Each word is in as many articles as
    // its count: every article has "twenty", 5,001 "five", 4,999 "nearly", 3 "three".
    const name = `ranking${names++}`;
    const ranked = open(name);
    const WORDS = ["twenty", "five", "nearly", "three"];
    const PLACES = ["title", "keywords", "description", "body twice", "body once"] as const;
    type Place = (typeof PLACES)[number];
    const fill = (own: readonly string[], filler: string, count: number) => [
      ...own,
      ...Array.from({ length: count - own.length }, (_, index) => filler + String.fromCharCode(97 + index)),
    ];
    const template = (level: number, place: Place, slug: string, date: string): CatalogueArticle => {
      const words = WORDS.slice(0, level + 1);
      const body = place === "body twice" ? [...words, ...words] : place === "body once" ? words : [];
      return {
        slug,
        date,
        title: fill(place === "title" ? words : [], "heading", 4).join(" "),
        keywords: fill(place === "keywords" ? words : [], "keyword", 4),
        description: fill(place === "description" ? words : [], "summary", 6).join(" "),
        body: fill(body, "passage", 12).join(" "),
      };
    };
    const dayOf = (day: number) => new Date(Date.UTC(2000, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const templates = WORDS.flatMap((_, level) =>
      PLACES.map((place) => ({ level, place, slug: `template-${level}-${PLACES.indexOf(place)}` })),
    );
    for (const { level, place, slug } of templates) await ranked.putArticle(template(level, place, slug, dayOf(0)));
    // 20,000 articles: 5 % in each place of the heads and twice in the body, the rest once in the body (so
    // that ranking every match and ranking the newest differ); days spread with ties (about three a day),
    // unrelated to the order of arrival.
    const articles = Array.from({ length: 20_000 }, (_, order) => {
      const level = order < 3 ? 3 : order < 4_999 ? 2 : order < 5_001 ? 1 : 0;
      const place = PLACES[Math.min(4, (order * 7_919 + 13) % 20)]!;
      return { slug: `r${order}`, level, place, day: (order * 104_729) % 6_007, order };
    });
    await store.copy(
      name,
      articles.map(({ slug, level, place, day }) => ({
        from: templates.find((one) => one.level === level && one.place === place)!.slug,
        slug,
        date: dayOf(day),
      })),
    );
    await ranked.remove(templates.map((one) => one.slug));

    type Ranked = (typeof articles)[number];
    const newer = (a: Ranked, b: Ranked) => b.day - a.day || b.order - a.order;
    const better = (a: Ranked, b: Ranked) => PLACES.indexOf(a.place) - PLACES.indexOf(b.place) || newer(a, b);
    const isHead = (one: Ranked) => PLACES.indexOf(one.place) < 3;
    const expected = (level: number) => {
      const matches = articles.filter((one) => one.level >= level);
      if (matches.length <= 5_000) return matches.sort(better).map((one) => one.slug);
      const tier = (list: Ranked[]) => list.sort(newer).slice(0, 1_000).sort(better);
      return [...tier(matches.filter(isHead)), ...tier(matches.filter((one) => !isHead(one)))].map((one) => one.slug);
    };
    /** The results of `query`, all of its words at `level` or above. */
    const check = async (level: number, query = WORDS[level]!) => {
      const want = expected(level);
      const offered = await ranked.search(query, 1, 1_000);
      const count = articles.filter((one) => one.level >= level).length;
      expect({ query, total: offered.total, more: offered.more }).toEqual({
        query,
        total: Math.min(count, 1_000),
        more: count > 1_000,
      });
      expect(offered.hits.map((hit) => hit.slug)).toEqual(want.slice(0, 1_000));
      expect((await ranked.search(query, 7, 10)).hits.map((hit) => hit.slug)).toEqual(want.slice(60, 70));
    };
    for (const level of [3, 2, 1, 0]) await check(level);
    await check(1, "twenty five");
    await check(2, "five nearly");
    // "five": fewer than 1,000 title matches, so the body tier follows. An old article written again with a
    // newer date moves among the newest; written back, it leaves.
    const old = articles
      .filter((one) => one.level >= 1 && one.place === "body twice")
      .sort(newer)
      .at(-1)!;
    expect(expected(1)).not.toContain(old.slug);
    old.day = 6_100;
    await ranked.putArticle(template(old.level, old.place, old.slug, dayOf(old.day)));
    expect(expected(1)).toContain(old.slug);
    await check(1);
    ranked.close();
  }, 120_000);

  it("lists the articles holding a body in order of slugs, from after any slug, for the sync's re-reads", async () => {
    const catalogue = open();
    for (const slug of ["c", "a", "e", "b"]) await catalogue.putArticle(article(slug));
    await catalogue.putEntries([{ slug: "d", title: "Listed, no body yet", description: "" }]);
    expect(await catalogue.bodiesAfter("", 3)).toEqual(["a", "b", "c"]);
    expect(await catalogue.bodiesAfter("c", 3)).toEqual(["e"]);
    expect(await catalogue.bodiesAfter("bb", 10)).toEqual(["c", "e"]);
    expect(await catalogue.bodiesAfter("e", 10)).toEqual([]);
    catalogue.close();
  });

  it("lets one holder at a time keep the sync lease until it runs out", async () => {
    const file = `lease${names++}`;
    const one = open(file);
    const two = open(file);
    expect(await one.lease("one", 400)).toBe(true);
    expect(await two.lease("two", 400)).toBe(false);
    expect(await one.lease("one", 400)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await two.lease("two", 400)).toBe(true);
    one.close();
    two.close();
  });
});
