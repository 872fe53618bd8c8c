import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Catalogue, CatalogueArticle, CatalogueEntry } from "~/search/catalogue";
import {
  articleRow,
  bodyHash,
  bodyTextOf,
  chosenSnippet,
  countedUpTo,
  entryHash,
  entryOf,
  entryWrite,
  keywordLabels,
  MARK_END,
  MARK_START,
  MAX_BODY_CHARS,
  mergeEntry,
  relatedInOrder,
  searchInOrder,
  snippetParts,
  suggestionOf,
  suggestWordInRounds,
  unchanged,
  type Found,
  type SearchQueries,
  type StoredArticle,
} from "~/search/catalogue-rules.server";
import { openPostgresCatalogue } from "~/search/pg-catalogue.server";
import { createPool } from "~/database/postgres.server";
import { migrate } from "~/database/postgres-schema.server";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { suggestWord } from "~/search/suggest";
import { postgresMissing, startPostgres } from "../../support/postgres.mjs";

// The rules both catalogue stores share (app/search/catalogue-rules.server.ts): pure, so checked here on
// generated values; then, on both stores, that what they store is what the rules give.

const text = fc.string({ maxLength: 12 });
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const keywords = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 });
const date = fc.constantFrom("2024-01-05", "5 January 2024", "", "not a date", "2025-12-31T10:00:00Z");
const entry: fc.Arbitrary<CatalogueEntry> = fc.record({
  slug: fc.stringMatching(/^[a-z]{1,8}$/),
  title: text,
  description: text,
  image: optional(text),
  date: optional(date),
  keywords: optional(keywords),
});
const article: fc.Arbitrary<CatalogueArticle> = fc.record({
  slug: fc.stringMatching(/^[a-z]{1,8}$/),
  title: text,
  description: text,
  image: optional(text),
  date,
  keywords,
  body: text,
});
/** What a store holds of an article, with its keywords as either store keeps them. */
const stored = fc.record({
  date: fc.option(date, { nil: null }),
  keywords,
  json: fc.boolean(),
  entry_hash: fc.string({ maxLength: 4 }),
  body_hash: fc.option(fc.string({ maxLength: 4 }), { nil: null }),
});
const storedAs = ({
  json,
  keywords: list,
  ...rest
}: {
  json: boolean;
  keywords: string[];
  date: string | null;
  entry_hash: string;
  body_hash: string | null;
}): StoredArticle => ({
  ...rest,
  keywords: json ? JSON.stringify(list) : list,
});

describe("the hashes", () => {
  it("change with any field they cover, and with no other", () => {
    fc.assert(
      fc.property(
        article,
        text,
        fc.constantFrom("title", "description", "image", "date", "keywords", "body"),
        text,
        (base, body, field, other) => {
          const value = field === "keywords" ? [other] : other;
          const changed = field === "body" ? base : { ...base, [field]: value };
          const changedBody = field === "body" ? other : body;
          fc.pre(
            JSON.stringify(field === "body" ? body : base[field]) !== JSON.stringify(field === "body" ? other : value),
          );
          expect(bodyHash(changed, changedBody)).not.toBe(bodyHash(base, body));
          // The entry's hash covers what a list gives of it alone.
          if (["title", "description", "image"].includes(field)) expect(entryHash(changed)).not.toBe(entryHash(base));
          else expect(entryHash(changed)).toBe(entryHash(base));
        },
      ),
    );
  });

  it("take an image left out as none, and ignore the slug", () => {
    fc.assert(
      fc.property(article, fc.stringMatching(/^[a-z]{1,8}$/), (one, slug) => {
        const withoutImage = { ...one, image: undefined };
        expect(entryHash(withoutImage)).toBe(entryHash({ ...withoutImage, image: undefined }));
        expect(bodyHash({ ...one, slug } as CatalogueArticle, one.body)).toBe(bodyHash(one, one.body));
        expect(entryHash({ ...one, slug } as CatalogueArticle)).toBe(entryHash(one));
      }),
    );
  });
});

describe("the merge of a list entry with what is stored", () => {
  it("is idempotent, keeps what the entry gives, and the stored details the entry lacks", () => {
    fc.assert(
      fc.property(entry, fc.option(stored, { nil: undefined }), (given, old) => {
        const held = old && storedAs(old);
        const merged = mergeEntry(given, held);
        expect(mergeEntry(merged, held)).toEqual(merged);
        expect(merged).toMatchObject({
          slug: given.slug,
          title: given.title,
          description: given.description,
          image: given.image,
        });
        expect(merged.date).toBe(given.date ?? old?.date ?? undefined);
        expect(merged.keywords).toEqual(given.keywords ?? old?.keywords ?? []);
      }),
    );
  });

  it("is the same whether the keywords are stored as JSON text (SQLite) or a list (PostgreSQL)", () => {
    fc.assert(
      fc.property(entry, stored, (given, old) => {
        expect(mergeEntry(given, storedAs({ ...old, json: true }))).toEqual(
          mergeEntry(given, storedAs({ ...old, json: false })),
        );
      }),
    );
  });

  it("writes nothing when the entry's hash is the stored one, else a row wanting its body, the body's hash kept", () => {
    fc.assert(
      fc.property(entry, stored, fc.boolean(), (given, old, same) => {
        const held = storedAs({ ...old, entry_hash: same ? entryHash(given) : old.entry_hash });
        fc.pre(same || held.entry_hash !== entryHash(given));
        const write = entryWrite(given, held);
        if (same) {
          expect(write).toBeUndefined();
          return;
        }
        expect(write?.merged).toEqual(mergeEntry(given, held));
        expect(write?.row).toMatchObject({
          slug: given.slug,
          entry_hash: entryHash(given),
          body_hash: held.body_hash,
          body_wanted: 1,
          keywords: JSON.stringify(write?.merged.keywords),
        });
      }),
    );
  });
});

describe("rows", () => {
  it("read back as the entry they were written from, keywords as JSON text or a list", () => {
    fc.assert(
      fc.property(article, (one) => {
        const row = articleRow(one, one.body);
        const read = { ...row, keywords: JSON.parse(row.keywords) as string[] };
        expect(entryOf(row)).toEqual(entryOf(read));
        expect(entryOf(row)).toEqual({
          slug: one.slug,
          title: one.title,
          description: one.description,
          image: one.image,
          date: one.date || undefined,
          keywords: one.keywords,
        });
      }),
    );
  });

  it("of an article are unchanged against themselves, and changed when either hash differs", () => {
    fc.assert(
      fc.property(article, text, (one, other) => {
        const row = articleRow(one, one.body);
        expect(unchanged(row, row)).toBe(true);
        expect(unchanged(undefined, row)).toBe(false);
        fc.pre(other !== one.title);
        expect(unchanged(row, articleRow({ ...one, title: other }, one.body))).toBe(false);
        expect(unchanged({ ...row, body_hash: null }, row)).toBe(false);
      }),
    );
  });

  it("label each keyword key with its first keyword, cleaned as the store asks", () => {
    expect([...keywordLabels(["Zen Retreat", "zen retreat", "Thiền"])]).toEqual([
      ["zen-retreat", "Zen Retreat"],
      ["thiền", "Thiền"],
    ]);
    expect([...keywordLabels(["a\u0000b"], (value) => value.replaceAll("\u0000", ""))].flat().join()).not.toContain(
      "\u0000",
    );
    expect(keywordLabels(undefined).size).toBe(0);
  });

  it("keep bodies up to MAX_BODY_CHARS characters of their text", async () => {
    expect(await bodyTextOf({ body: "x".repeat(MAX_BODY_CHARS + 10) })).toHaveLength(MAX_BODY_CHARS);
    expect(await bodyTextOf({ body: "**Plain** words" })).toBe("Plain words");
  });
});

describe("snippets", () => {
  it("are parts whose text is the snippet's without its marks, no two marked parts side by side", () => {
    const piece = fc.record({ text: fc.oneof(fc.string({ maxLength: 6 }), fc.constant("\u200b")), mark: fc.boolean() });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const snippet = pieces.map(({ text, mark }) => (mark ? `${MARK_START}${text}${MARK_END}` : text)).join("");
        const parts = snippetParts(snippet);
        expect(parts.map((part) => part.text).join("")).toBe(
          pieces.map(({ text }) => text.replaceAll("\u200b", "")).join(""),
        );
        // Each marked character of the snippet is in a marked part.
        expect(
          parts
            .filter((part) => part.mark)
            .map((part) => part.text)
            .join(""),
        ).toBe(pieces.flatMap(({ text, mark }) => (mark ? [text.replaceAll("\u200b", "")] : [])).join(""));
        parts.forEach((part, index) => {
          expect(part.text).not.toBe("");
          if (index > 0) expect(part.mark && parts[index - 1]!.mark).toBe(false);
        });
      }),
    );
  });

  it("come from the body when it holds the words, else the description when it does, else the body's start", () => {
    const description = vi.fn(() => "description");
    expect(chosenSnippet(`a ${MARK_START}word${MARK_END}`, description)).toBe(`a ${MARK_START}word${MARK_END}`);
    expect(description).not.toHaveBeenCalled();
    expect(chosenSnippet("body", () => `${MARK_START}word${MARK_END}`)).toBe(`${MARK_START}word${MARK_END}`);
    expect(chosenSnippet("body", () => "description")).toBe("body");
    expect(chosenSnippet("", () => "description")).toBe("description");
  });
});

describe("the order of a search", () => {
  /** A store whose matches are given by query ("strict" or "loose"), that records what it was asked. */
  const storeOf = (
    found: { strict: number; loose: number },
    known: string[] = [],
    closest: Record<string, string> = {},
  ) => {
    const asked: string[] = [];
    const store: SearchQueries<"strict" | "loose"> = {
      query: (words, loose) => (words.length === 0 ? undefined : loose ? "loose" : "strict"),
      find: (query, limit, offset): Found => {
        asked.push(`${query} ${limit} ${offset}`);
        return {
          ...countedUpTo(found[query]),
          hits: found[query] > 0 ? [{ slug: query, title: query, snippet: [] }] : [],
        };
      },
      knows: async (spellings) => spellings.some((spelling) => known.includes(spelling)),
      closest: (plain) => closest[plain],
    };
    return { store, asked };
  };

  it("asks for every word first, and stops there when an article has them all", async () => {
    const { store, asked } = storeOf({ strict: 3, loose: 9 });
    expect(await searchInOrder("zen breath", 3, 10, store)).toEqual({
      total: 3,
      more: false,
      hits: [{ slug: "strict", title: "strict", snippet: [] }],
      match: "all",
    });
    expect(asked).toEqual(["strict 10 20"]);
  });

  it("then for any word, with a suggestion of the words the index holds", async () => {
    const { store, asked } = storeOf({ strict: 0, loose: 1500 }, ["zen"], { breth: "breath" });
    expect(await searchInOrder("zen breth", 1, 10, store)).toEqual({
      total: 1000,
      more: true,
      hits: [{ slug: "loose", title: "loose", snippet: [] }],
      match: "any",
      suggestion: "zen breath",
    });
    expect(asked).toEqual(["strict 10 0", "loose 10 0"]);
  });

  it("answers nothing for a query of no words, asking the store nothing", async () => {
    const { store, asked } = storeOf({ strict: 1, loose: 1 });
    expect(await searchInOrder(" ,. ", 1, 10, store)).toEqual({ total: 0, more: false, hits: [], match: "all" });
    expect(asked).toEqual([]);
  });

  it("suggests only when a word was replaced, and asks no closest word for a known one", async () => {
    const closest = vi.fn((plain: string) => (plain === "thien" ? "thiền" : undefined));
    const words = [
      { word: "zen", spellings: ["zen"] },
      { word: "Thiền", spellings: ["thiền", "thien"] },
    ];
    expect(await suggestionOf(words, { knows: (spellings) => spellings.includes("zen"), closest })).toBe("zen thiền");
    expect(closest).toHaveBeenCalledTimes(1);
    expect(await suggestionOf(words, { knows: () => false, closest: () => undefined })).toBeUndefined();
  });

  it("suggests the same word asked in rounds (PostgreSQL) as asked at once (SQLite)", async () => {
    const vocabulary = [
      "breath",
      "bread",
      "breathe",
      "zen",
      "zenith",
      "meditation",
      "medication",
      "mediation",
      "thien",
      "then",
    ].sort();
    const near = (from: string, to: string, limit: number) =>
      vocabulary
        .filter((term) => term >= from && term < to)
        .slice(0, limit)
        .map((term, index) => ({ term, doc: index + 1 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("breth", "brea", "zenit", "meditaton", "thein", "xyz", "zen", "medtation"),
        async (word) => {
          expect(await suggestWordInRounds(word, async (from, to, limit) => near(from, to, limit))).toBe(
            suggestWord(word, near),
          );
        },
      ),
    );
  });
});

describe("related articles", () => {
  const card = (slug: string, words: string[]) => ({ slug, title: slug, description: "", keywords: words });

  it("rank the store's candidates but the article itself, then fill with the newest", async () => {
    const candidates = vi.fn(() => [
      { entry: card("self", ["zen"]), dateIso: "2025-01-01" },
      { entry: card("one", ["zen"]), dateIso: "2024-01-01" },
      { entry: card("two", ["zen", "retreat"]), dateIso: "2023-01-01" },
    ]);
    const newest = vi.fn(async () => [card("new", []), card("one", [])]);
    const found = await relatedInOrder({ slug: "self", keywords: ["zen retreat"] }, 3, undefined, {
      candidates,
      newest,
    });
    expect(found.map((each) => each.slug)).toEqual(["two", "one", "new"]);
    expect(newest).toHaveBeenCalledWith("self", 6);
  });

  it("ask no candidates of an article without keywords", async () => {
    const candidates = vi.fn(() => []);
    const found = await relatedInOrder({ slug: "self", keywords: [] }, 1, undefined, {
      candidates,
      newest: () => [card("new", [])],
    });
    expect(candidates).not.toHaveBeenCalled();
    expect(found.map((each) => each.slug)).toEqual(["new"]);
  });
});

// Both stores store the hashes of the rules: a store that hashed otherwise would fail here.
describe("the hashes both stores keep", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "catalogue-rules-"));
  let server: Awaited<ReturnType<typeof startPostgres>> | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    if (postgresMissing) return;
    server = await startPostgres();
    pool = createPool({ url: server.url, poolSize: 2 });
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end().catch(() => {});
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  type Hashes = { entry_hash: string; body_hash: string | null } | undefined;
  let names = 0;
  const stores: {
    name: string;
    missing: boolean;
    open: () => { catalogue: Catalogue; hashes: (slug: string) => Promise<Hashes> };
  }[] = [
    {
      name: "SQLite",
      missing: false,
      open: () => {
        const file = path.join(dir, `c${names++}.sqlite`);
        const catalogue = openSqliteCatalogue(file);
        const hashes = async (slug: string) => {
          const db = new Database(file, { readonly: true });
          try {
            return db
              .prepare<[string], NonNullable<Hashes>>("SELECT entry_hash, body_hash FROM articles WHERE slug = ?")
              .get(slug);
          } finally {
            db.close();
          }
        };
        return { catalogue, hashes };
      },
    },
    {
      name: "PostgreSQL",
      missing: postgresMissing,
      open: () => {
        const name = `c${names++}`;
        const catalogue = openPostgresCatalogue(pool!, name);
        const hashes = async (slug: string) =>
          (
            await pool!.query<NonNullable<Hashes>>(
              "SELECT a.entry_hash, a.body_hash FROM articles a JOIN catalogues c ON c.id = a.catalogue WHERE c.name = $1 AND a.slug = $2",
              [name, slug],
            )
          ).rows[0];
        return { catalogue, hashes };
      },
    },
  ];

  const bodies = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom("# A heading\n\nSome *emphasis* and a [link](https://example.org).", "x\u0000y"),
  );

  describe.each(stores)("$name", ({ missing, open }) => {
    it.skipIf(missing)(
      "are the rules' own, for list entries and for articles with their bodies",
      async () => {
        const { catalogue, hashes } = open();
        await fc.assert(
          fc.asyncProperty(entry, article, bodies, async (listed, fetched, body) => {
            const one = { ...fetched, slug: listed.slug, body };
            await catalogue.putEntries([listed]);
            expect((await hashes(listed.slug))?.entry_hash).toBe(entryHash(listed));
            await catalogue.putArticle(one);
            expect(await hashes(one.slug)).toEqual({
              entry_hash: entryHash(one),
              body_hash: bodyHash(one, await bodyTextOf(one)),
            });
            // The same article again is unchanged by the rules' hashes.
            expect(await catalogue.putArticle(one)).toBe(false);
            await catalogue.remove([one.slug]);
          }),
          { numRuns: 25 },
        );
        catalogue.close();
      },
      60_000,
    );
  });
});
