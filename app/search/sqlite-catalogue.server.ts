import { mkdirSync } from "node:fs";
import path from "node:path";
import { MAX_COUNTED, type Catalogue, type CatalogueArticle, type CatalogueEntry, type SearchHit } from "./catalogue";
import {
  articleRow,
  bodyTextOf,
  candidateOf,
  chosenSnippet,
  countedUpTo,
  entryOf,
  entryWrite,
  EXACT_UP_TO,
  foldedWithBody,
  headTextOf,
  hitOf,
  keywordLabels,
  keywordOf,
  NEWEST_RANKED,
  relatedInOrder,
  searchInOrder,
  SNIPPET,
  unchanged,
  type ArticleRow,
} from "./catalogue-rules.server";
import { suggestWord } from "./suggest";
import { textKey } from "./text-key";
import { indexedText, type IndexedText } from "./indexed-text.server";
import { matchExpression } from "./tokenize";
import { openStoreConnection } from "~/database/sqlite-connection.server";

/**
 * The catalogue of one site in a SQLite file with FTS5 (docs/decisions/031). unicode61 drops accents and
 * keeps Thai marks ('L* N* Co M*') and Sinhala conjuncts whole (the joiners ZWJ and ZWNJ are token
 * characters, docs/decisions/046; a file made before keeps splitting at them); app/search/tokenize.ts does
 * the rest before text reaches it. WAL lets the processes of one machine read while the one holding the
 * lease writes. What it stores and answers follows app/search/catalogue-rules.server.ts, as PostgreSQL's
 * store does.
 */

/** The words FTS5 indexes (docs/decisions/046): letters, numbers, private-use characters and marks, with the joiners of a Sinhala conjunct. */
export const FTS5_TOKENIZER = "unicode61 remove_diacritics 2 categories 'L* N* Co M*' tokenchars '\u200c\u200d'";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS articles (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  image TEXT,
  date TEXT,
  date_iso TEXT,
  keywords TEXT NOT NULL DEFAULT '[]',
  entry_hash TEXT NOT NULL,
  body_hash TEXT,
  body_wanted INTEGER NOT NULL DEFAULT 1,
  text_key INTEGER
);
CREATE INDEX IF NOT EXISTS articles_by_date ON articles (date_iso DESC, id DESC);
CREATE INDEX IF NOT EXISTS articles_wanting_body ON articles (body_wanted, id);
CREATE TABLE IF NOT EXISTS keywords (
  key TEXT NOT NULL,
  article INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  label TEXT NOT NULL,
  PRIMARY KEY (key, article)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS keywords_of_article ON keywords (article);
CREATE VIRTUAL TABLE IF NOT EXISTS texts USING fts5 (
  title, description, keywords, body, folded,
  tokenize = "${FTS5_TOKENIZER}"
);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5vocab (texts, 'row');
CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL);
`;

/** bm25 with column weights: a word in the title counts most, then keywords and description, then the body. */
const BM25 = "bm25(texts, 10.0, 4.0, 6.0, 1.0, 1.0)";
/** Beyond EXACT_UP_TO matches, the first tier (catalogue-rules.server.ts): the words in these columns. */
const HEAD_COLUMNS = "{title description keywords}";

type Row = {
  id: number;
  slug: string;
  title: string;
  description: string;
  image: string | null;
  date: string | null;
  keywords: string;
  text_key: number | null;
};

export function openSqliteCatalogue(file: string): Catalogue {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = openStoreConnection(file);
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  // Catalogues made before index keys had days: each row's key is its id, as its index row's was. In one
  // write transaction, as another process may be opening the same file.
  db.transaction(() => {
    if (!(db.pragma("table_info(articles)") as { name: string }[]).some((column) => column.name === "text_key")) {
      db.exec("ALTER TABLE articles ADD COLUMN text_key INTEGER; UPDATE articles SET text_key = id;");
    }
    db.exec("CREATE UNIQUE INDEX IF NOT EXISTS articles_by_text_key ON articles (text_key)");
  }).immediate();

  const statements = {
    byslug: db.prepare<[string], Row & { entry_hash: string; body_hash: string | null }>(
      "SELECT * FROM articles WHERE slug = ?",
    ),
    insert: db.prepare(
      "INSERT INTO articles (slug, title, description, image, date, date_iso, keywords, entry_hash, body_hash, body_wanted) VALUES (@slug, @title, @description, @image, @date, @date_iso, @keywords, @entry_hash, @body_hash, @body_wanted)",
    ),
    update: db.prepare(
      "UPDATE articles SET title = @title, description = @description, image = @image, date = @date, date_iso = @date_iso, keywords = @keywords, entry_hash = @entry_hash, body_hash = @body_hash, body_wanted = @body_wanted WHERE id = @id",
    ),
    body: db.prepare<[number], { body: string; folded: string }>("SELECT body, folded FROM texts WHERE rowid = ?"),
    deleteText: db.prepare<[number]>("DELETE FROM texts WHERE rowid = ?"),
    insertText: db.prepare(
      "INSERT INTO texts (rowid, title, description, keywords, body, folded) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    deleteKeywords: db.prepare<[number]>("DELETE FROM keywords WHERE article = ?"),
    insertKeyword: db.prepare("INSERT OR IGNORE INTO keywords (key, article, label) VALUES (?, ?, ?)"),
    deleteArticle: db.prepare<[string], { text_key: number | null }>(
      "DELETE FROM articles WHERE slug = ? RETURNING text_key",
    ),
    defer: db.prepare<[string]>("UPDATE articles SET body_wanted = 2 WHERE slug = ?"),
    retry: db.prepare("UPDATE articles SET body_wanted = 1 WHERE body_wanted = 2"),
    missing: db.prepare<[number], { slug: string }>(
      "SELECT slug FROM articles WHERE body_wanted = 1 ORDER BY id LIMIT ?",
    ),
    slugs: db.prepare<[], { slug: string }>("SELECT slug FROM articles"),
    bodiesAfter: db.prepare<[string, number], { slug: string }>(
      "SELECT slug FROM articles WHERE slug > ? AND body_hash IS NOT NULL ORDER BY slug LIMIT ?",
    ),
    count: db.prepare<[], { articles: number; withBody: number }>(
      "SELECT count(*) AS articles, count(body_hash) AS withBody FROM articles",
    ),
    total: db.prepare<[string, number], { total: number }>(
      "SELECT count(*) AS total FROM (SELECT 1 FROM texts WHERE texts MATCH ? LIMIT ?)",
    ),
    // The key of the (n+1)th newest match: none when n or fewer articles match.
    newestMatch: db.prepare<[string, number], { key: number }>(
      "SELECT rowid AS key FROM texts WHERE texts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
    ),
    // bm25 in the query: FTS5's own rank order would score every match, whatever the range asked for.
    scored: db.prepare<[string, number, number], { key: number }>(
      `SELECT rowid AS key FROM texts WHERE texts MATCH ? AND rowid >= ? ORDER BY ${BM25}, rowid DESC LIMIT ?`,
    ),
    // The newest matches with their scores, in one walk of the index from its newest end.
    newestScored: db.prepare<[string, number], { key: number; score: number }>(
      `SELECT rowid AS key, ${BM25} AS score FROM texts WHERE texts MATCH ? ORDER BY rowid DESC LIMIT ?`,
    ),
    setKey: db.prepare<[number, number]>("UPDATE articles SET text_key = ? WHERE id = ?"),
    // FTS5's snippet of one column of one matching row (3: the body, 1: the description).
    snippet: db.prepare<[number, string, number], { snippet: string }>(
      `SELECT snippet(texts, ?, '${SNIPPET.start}', '${SNIPPET.end}', '${SNIPPET.ellipsis}', ${SNIPPET.size}) AS snippet FROM texts WHERE texts MATCH ? AND rowid = CAST(? AS INTEGER)`,
    ),
    byKey: db.prepare<[number], Row & { date_iso: string | null }>("SELECT * FROM articles WHERE text_key = ?"),
    newest: db.prepare<[string, number], Row>(
      "SELECT * FROM articles WHERE slug <> ? ORDER BY date_iso DESC, slug LIMIT ?",
    ),
    keywordLabel: db.prepare<[string], { label: string; total: number }>(
      "SELECT label, count(*) AS total FROM keywords WHERE key = ? GROUP BY key",
    ),
    keywordEntries: db.prepare<[string, number, number], Row>(
      "SELECT a.* FROM keywords k JOIN articles a ON a.id = k.article WHERE k.key = ? ORDER BY a.date_iso DESC, a.id DESC LIMIT ? OFFSET ?",
    ),
    keywords: db.prepare<[], { key: string; label: string; count: number; lastmod: string | null }>(
      "SELECT k.key, min(k.label) AS label, count(*) AS count, max(a.date_iso) AS lastmod FROM keywords k JOIN articles a ON a.id = k.article GROUP BY k.key ORDER BY k.key",
    ),
    date: db.prepare<[string], { date_iso: string | null }>("SELECT date_iso FROM articles WHERE slug = ?"),
    bySlug: db.prepare<[string], Row>("SELECT * FROM articles WHERE slug = ?"),
    vocabulary: db.prepare<[string], { doc: number }>("SELECT doc FROM words WHERE term = ?"),
    vocabularyNear: db.prepare<[string, string, number], { term: string; doc: number }>(
      "SELECT term, doc FROM words WHERE term >= ? AND term < ? LIMIT ?",
    ),
    getState: db.prepare<[string], { value: string }>("SELECT value FROM state WHERE name = ?"),
    setState: db.prepare(
      "INSERT INTO state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    ),
    release: db.prepare<[string]>("DELETE FROM lease WHERE name = 'sync' AND holder = ?"),
    lease: db.prepare(
      "INSERT INTO lease (name, holder, until) VALUES ('sync', @holder, @until) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE lease.holder = excluded.holder OR lease.until < @now",
    ),
  };

  /**
   * Writes the searchable text of article `id` (indexed under `oldKey` until now) under the key of its
   * date; the body's (indexedText) stays as it was when `body` is undefined.
   */
  function writeText(
    id: number,
    oldKey: number | null,
    dateIso: string | null,
    entry: CatalogueEntry,
    body: IndexedText | undefined,
  ) {
    const kept = body === undefined && oldKey !== null ? statements.body.get(oldKey) : undefined;
    if (oldKey !== null) statements.deleteText.run(oldKey);
    const indexKey = textKey(id, dateIso);
    statements.setKey.run(indexKey, id);
    const head = headTextOf(entry);
    const spacedBody = body === undefined ? (kept?.body ?? "") : body.spaced;
    const folded = foldedWithBody(head, body === undefined ? (kept?.folded ?? "") : body.folded);
    statements.insertText.run(indexKey, head.title, head.description, head.keywords, spacedBody, folded);
    statements.deleteKeywords.run(id);
    for (const [key, label] of keywordLabels(entry.keywords)) statements.insertKeyword.run(key, id, label);
  }

  /** Writes an article's row: answers its id. */
  const upsert = (row: ArticleRow, old: { id: number } | undefined) =>
    old ? (statements.update.run({ ...row, id: old.id }), old.id) : Number(statements.insert.run(row).lastInsertRowid);

  const putEntries = db.transaction((entries: readonly CatalogueEntry[]) => {
    const wanted: string[] = [];
    for (const entry of entries) {
      const old = statements.byslug.get(entry.slug);
      const write = entryWrite(entry, old);
      if (!write) continue;
      writeText(upsert(write.row, old), old?.text_key ?? null, write.row.date_iso, write.merged, undefined);
      wanted.push(entry.slug);
    }
    return wanted;
  });

  /** What an article's row will hold, and whether the row already holds it. */
  const rowOf = (article: CatalogueArticle, body: string) => {
    const row = articleRow(article, body);
    const old = statements.byslug.get(article.slug);
    return { row, old, unchanged: unchanged(old, row) };
  };
  /** An unchanged article fetched again: its body is no longer wanted. */
  const bodyHad = (old: { id: number; body_hash: string | null }) => {
    if (old.body_hash) db.prepare("UPDATE articles SET body_wanted = 0 WHERE id = ?").run(old.id);
    return false;
  };

  const putArticle = db.transaction((article: CatalogueArticle, text: IndexedText, body: string): boolean => {
    // Asked again inside the transaction: another write may have come while the text was worked out.
    const { row, old, unchanged } = rowOf(article, body);
    if (unchanged) return bodyHad(old!);
    writeText(upsert(row, old), old?.text_key ?? null, row.date_iso, article, text);
    return true;
  });

  const remove = db.transaction((slugs: readonly string[]) => {
    for (const slug of slugs) {
      const removed = statements.deleteArticle.get(slug);
      if (removed?.text_key != null) statements.deleteText.run(removed.text_key);
    }
  });

  /**
   * The keys of the `wanted` best matches of `expression` among its newest `newest`, best first (bm25, then
   * the newest). Scored as they are found, newest first: finding where the newest end, then scoring from
   * there, walked the index twice, the whole of it when the matches are fewer (a title tier of two words).
   */
  function bestOfNewest(expression: string, newest: number, wanted: number): number[] {
    return statements.newestScored
      .all(expression, newest)
      .sort((a, b) => a.score - b.score || b.key - a.key)
      .slice(0, wanted)
      .map((row) => row.key);
  }

  /** The keys of the first `wanted` results in ranked order, by bm25 (EXACT_UP_TO, catalogue-rules.server.ts). */
  function rankedKeys(expression: string, wanted: number): number[] {
    const few = !statements.newestMatch.get(expression, EXACT_UP_TO);
    if (few) return statements.scored.all(expression, Number.MIN_SAFE_INTEGER, wanted).map((row) => row.key);
    const heads = `${HEAD_COLUMNS} : (${expression})`;
    const keys = bestOfNewest(heads, NEWEST_RANKED, wanted);
    if (keys.length < wanted)
      keys.push(...bestOfNewest(`(${expression}) NOT ${heads}`, NEWEST_RANKED, wanted - keys.length));
    return keys;
  }

  /** One page of ranked results, with their snippets (FTS5's, of the body or the description). */
  function rankedHits(expression: string, limit: number, offset: number): SearchHit[] {
    const hits: SearchHit[] = [];
    const snippet = (column: number, key: number) => statements.snippet.get(column, expression, key)?.snippet ?? "";
    for (const key of rankedKeys(expression, offset + limit).slice(offset)) {
      const row = statements.byKey.get(key);
      if (row)
        hits.push(
          hitOf(
            row,
            chosenSnippet(snippet(3, key), () => snippet(1, key)),
          ),
        );
    }
    return hits;
  }

  return {
    async putEntries(entries) {
      return putEntries(entries);
    },
    async putArticle(article) {
      const body = await bodyTextOf(article);
      const before = rowOf(article, body);
      if (before.unchanged) return bodyHad(before.old!);
      // The body's text is worked out before the write, a piece at a time (tokenize.ts).
      return putArticle(article, await indexedText(body), body);
    },
    async remove(slugs) {
      remove(slugs);
    },
    async deferBody(slug) {
      statements.defer.run(slug);
    },
    async retryDeferred() {
      statements.retry.run();
    },
    async missingBodies(limit) {
      return statements.missing.all(limit).map((row) => row.slug);
    },
    async bodiesAfter(slug, limit) {
      return statements.bodiesAfter.all(slug, limit).map((row) => row.slug);
    },
    async slugs() {
      return statements.slugs.all().map((row) => row.slug);
    },
    async count() {
      return statements.count.get()!;
    },
    search(query, page, pageSize) {
      return searchInOrder(query, page, pageSize, {
        query: (words, loose) => (words.length === 0 ? undefined : matchExpression(words, { loose })),
        find: (expression, limit, offset) => {
          const found = countedUpTo(statements.total.get(expression, MAX_COUNTED + 1)!.total);
          return { ...found, hits: found.total > 0 ? rankedHits(expression, limit, offset) : [] };
        },
        knows: (spellings) => spellings.some((spelling) => (statements.vocabulary.get(spelling)?.doc ?? 0) > 0),
        closest: (plain) => suggestWord(plain, (from, to, limit) => statements.vocabularyNear.all(from, to, limit)),
      });
    },
    async keywordPage(key, page, pageSize) {
      const found = statements.keywordLabel.get(key);
      if (!found) return undefined;
      const entries = statements.keywordEntries.all(key, pageSize, (page - 1) * pageSize).map(entryOf);
      return { label: found.label, total: found.total, entries };
    },
    async keywords() {
      return statements.keywords.all().map(keywordOf);
    },
    related(about, count, readRate) {
      return relatedInOrder(about, count, readRate, {
        // The best of the newest NEWEST_RANKED with the words in their keywords column.
        candidates: (words, limit) => {
          const expression = `{keywords} : (${matchExpression(words, { loose: true, prefixes: false })})`;
          return bestOfNewest(expression, NEWEST_RANKED, limit).flatMap((key) => {
            const row = statements.byKey.get(key);
            return row ? [candidateOf(row)] : [];
          });
        },
        newest: (slug, limit) => statements.newest.all(slug, limit).map(entryOf),
      });
    },
    async entries(slugs) {
      return slugs.flatMap((slug) => {
        const row = statements.bySlug.get(slug);
        return row ? [entryOf(row)] : [];
      });
    },
    async has(slug) {
      return statements.date.get(slug) !== undefined;
    },
    async dates(slugs) {
      const dates = new Map<string, string>();
      for (const slug of slugs) {
        const date = statements.date.get(slug)?.date_iso;
        if (date) dates.set(slug, date);
      }
      return dates;
    },
    async getState(name) {
      return statements.getState.get(name)?.value;
    },
    async setState(name, value) {
      statements.setState.run(name, value);
    },
    async release(holder) {
      statements.release.run(holder);
    },
    async lease(holder, ms) {
      const now = Date.now();
      return statements.lease.run({ holder, until: now + ms, now }).changes > 0;
    },
    close() {
      db.close();
    },
  };
}
