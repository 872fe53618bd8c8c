import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { CatalogueArticle } from "~/search/catalogue";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";

// Catalogues made before index keys had days (docs/decisions/040). The ranking itself is tested on both stores
// alike (catalogue.test.ts).

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
