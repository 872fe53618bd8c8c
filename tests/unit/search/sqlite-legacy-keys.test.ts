import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalogue, CatalogueArticle } from "~/search/catalogue";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";

// Ranking stays bounded at any size (docs/decisions/040): beyond 5,000 matches, title, description and
// keyword matches first, then the rest, each ranked among its newest 1,000 by date.

const dir = mkdtempSync(path.join(tmpdir(), "ranking-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const day = (index: number) => new Date(Date.UTC(2000, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
const article = (slug: string, index: number, fields: Partial<CatalogueArticle> = {}): CatalogueArticle => ({
  slug,
  title: `Article ${index}`,
  description: "A short description.",
  date: day(index),
  keywords: [],
  body: "A bell was rung in the hall.",
  ...fields,
});
const dense = "bell ".repeat(40);

/** `count` articles with the word in their body, stored newest first as a first sync stores them. */
async function catalogueOf(name: string, count: number): Promise<Catalogue> {
  const catalogue = openSqliteCatalogue(path.join(dir, `${name}.sqlite`));
  // The oldest article has the word in its title; the oldest and the newest articles use it most.
  for (let index = count - 1; index >= 0; index--) {
    const fields = index === 0 ? { title: "The bell", body: "Rung at dawn." } : index === 1 || index === count - 1 ? { body: dense } : {};
    await catalogue.putArticle(article(`a${index}`, index, fields));
  }
  return catalogue;
}

describe("ranking in the SQLite catalogue", () => {
  let large: Catalogue;
  beforeAll(async () => {
    large = await catalogueOf("large", 5_200);
  }, 60_000);
  afterAll(() => large.close());

  it("ranks every match when few articles match: the oldest article using the word most is among the first", async () => {
    const small = await catalogueOf("small", 300);
    const { hits } = await small.search("bell", 1, 10);
    expect(hits[0]!.slug).toBe("a0");
    expect(hits.slice(1, 3).map((hit) => hit.slug).sort()).toEqual(["a1", "a299"]);
    small.close();
  });

  it("beyond 5,000 matches, puts title matches of any age first, then the newest articles by date, however they were stored", async () => {
    const first = await large.search("bell", 1, 10);
    expect(first).toMatchObject({ total: 1000, more: true });
    expect(first.hits.slice(0, 2).map((hit) => hit.slug)).toEqual(["a0", "a5199"]);
    // The oldest dense article is not among the newest 1,000 body matches, so it is not offered.
    const offered = new Set<string>();
    for (let page = 1; page <= 100; page++) for (const hit of (await large.search("bell", page, 10)).hits) offered.add(hit.slug);
    expect(offered.size).toBe(1000);
    expect(offered.has("a1")).toBe(false);
    for (const slug of offered) if (slug !== "a0") expect(Number(slug.slice(1)), slug).toBeGreaterThanOrEqual(5_200 - 1_000);
  });

  it("keeps an article's place by date when its date changes", async () => {
    await large.putArticle(article("a1", 1, { body: dense, date: day(9_000) }));
    const { hits } = await large.search("bell", 1, 10);
    expect(hits.slice(0, 3).map((hit) => hit.slug).sort()).toEqual(["a0", "a1", "a5199"]);
    await large.putArticle(article("a1", 1, { body: dense }));
  });
});

describe("a catalogue made before index keys had dates", () => {
  it("opens, finds what it held, and stores new articles by date", async () => {
    const file = path.join(dir, "legacy.sqlite");
    const made = openSqliteCatalogue(file);
    await made.putArticle(article("old-one", 1, { title: "Lotus" }));
    await made.putArticle(article("old-two", 2, { body: "A lotus in the pond." }));
    made.close();
    // As the earlier schema kept it: the index row under the article's id, no text_key column.
    const db = new Database(file);
    db.exec(`
      INSERT INTO texts (rowid, title, description, keywords, body, folded)
        SELECT a.id, t.title, t.description, t.keywords, t.body, t.folded FROM texts t JOIN articles a ON a.text_key = t.rowid;
      DELETE FROM texts WHERE rowid >= 4294967296;
      DROP INDEX articles_by_text_key;
      ALTER TABLE articles DROP COLUMN text_key;
    `);
    db.close();
    const reopened = openSqliteCatalogue(file);
    expect((await reopened.search("lotus", 1, 10)).hits.map((hit) => hit.slug)).toEqual(["old-one", "old-two"]);
    await reopened.putArticle(article("old-two", 2, { body: "A lotus in the pond, and a lotus in the hand." }));
    await reopened.putArticle(article("new-one", 3, { body: "Lotus." }));
    await reopened.remove(["old-one"]);
    expect((await reopened.search("lotus", 1, 10)).hits.map((hit) => hit.slug).sort()).toEqual(["new-one", "old-two"]);
    expect((await reopened.search("hand", 1, 10)).hits.map((hit) => hit.slug)).toEqual(["old-two"]);
    reopened.close();
  });
});
