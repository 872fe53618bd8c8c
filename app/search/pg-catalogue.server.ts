import type pg from "pg";
import type { Catalogue, CatalogueEntry } from "./catalogue";
import {
  articleRow,
  bodyTextOf,
  candidateOf,
  chosenSnippet,
  entryOf,
  entryWrite,
  foldedWithBody,
  headTextOf,
  hitOf,
  keywordLabels,
  keywordOf,
  relatedInOrder,
  searchInOrder,
  SNIPPET,
  suggestWordInRounds,
  unchanged,
  type ArticleRow,
  type EntryRow,
} from "./catalogue-rules.server";
import { connection, run } from "~/database/postgres.server";
import { LOCKS } from "~/database/postgres-schema.server";
import { lexeme, phrasesOf, queryShape, snippetOf, tsvectorOf, type Phrase, type QueryShape } from "./pg-text";
import { newestKeywordMatches, rankedMatches, type Ranking, type WindowCache } from "./pg-ranking.server";
import { indexedText, type IndexedText } from "./indexed-text.server";

/**
 * The catalogue of one site in PostgreSQL (docs/decisions/036), for origins on several machines sharing one
 * catalogue: the same interface and results as the SQLite file. Words reach PostgreSQL as the app's
 * tokenizer splits them (app/search/pg-text.ts); snippets are cut here from the stored text, as FTS5 cuts
 * them; results are ranked by app/search/pg-ranking.server.ts. What it stores and answers follows
 * app/search/catalogue-rules.server.ts, as the SQLite store does. Every site of every origin shares the
 * tables, each catalogue by its name.
 */

const ENTRY_COLUMNS = "id, slug, title, description, image, date, keywords";
const ENTRY_COLUMNS_OF_HITS = `${ENTRY_COLUMNS}, description_text, body_text`;

type Row = EntryRow & { id: string; keywords: string[] };

/** PostgreSQL's text holds no NUL character. */
const clean = (text: string) => text.replaceAll("\u0000", "");
const cleanOrNull = (text: string | null) => (text == null ? null : clean(text));
/** A row of catalogue-rules.server.ts as PostgreSQL takes it. */
const cleanRow = (row: ArticleRow): ArticleRow => ({
  ...row,
  slug: clean(row.slug),
  title: clean(row.title),
  description: clean(row.description),
  image: cleanOrNull(row.image),
  date: cleanOrNull(row.date),
  keywords: clean(row.keywords),
});

export function openPostgresCatalogue(pool: pg.Pool, name: string): Catalogue {
  let id: Promise<number> | undefined;
  /** The catalogue's row, made on first use; asked again after a failure (the database was away). */
  const catalogueId = () => {
    id ??= run<{ id: number }>(
      pool,
      "WITH made AS (INSERT INTO catalogues (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id) SELECT id FROM made UNION ALL SELECT id FROM catalogues WHERE name = $1",
      [name],
    ).then(async (rows) => {
      // Two origins making the row at once: the second's insert waits for the first's and does nothing, and its
      // select still sees the table as it was when the statement began, so it asks once more.
      const made = rows[0] ?? (await run<{ id: number }>(pool, "SELECT id FROM catalogues WHERE name = $1", [name]))[0];
      if (!made) throw new Error(`the catalogue ${name} could not be made`);
      return made.id;
    });
    id.catch(() => (id = undefined));
    return id;
  };

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
    const catalogue = await catalogueId();
    return run<T>(pool, text, [catalogue, ...values]);
  }

  /** The catalogue for app/search/pg-ranking.server.ts, whose statements take their values as given. */
  const windows: WindowCache = new Map();
  const ranking = async (): Promise<Ranking> => ({
    run: (text, values) => run(pool, text, values),
    catalogue: await catalogueId(),
    windows,
  });

  /** Writes of a catalogue take turns (one advisory lock each), so the word counts never deadlock. */
  async function write<T>(work: (client: pg.PoolClient, catalogue: number) => Promise<T>): Promise<T> {
    const catalogue = await catalogueId();
    const client = await connection(pool);
    let failed = false;
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCKS, catalogue]);
      const result = await work(client, catalogue);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      failed = true;
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release(failed);
    }
  }

  /** Counts each word once for each article that holds it: the old words out, the new ones in. */
  async function countTerms(client: pg.PoolClient, catalogue: number, removed: string[], added: string[]) {
    if (removed.length > 0) {
      await client.query("UPDATE terms SET docs = docs - 1 WHERE catalogue = $1 AND term = ANY($2::text[])", [
        catalogue,
        removed,
      ]);
      await client.query("DELETE FROM terms WHERE catalogue = $1 AND term = ANY($2::text[]) AND docs <= 0", [
        catalogue,
        removed,
      ]);
    }
    if (added.length > 0)
      await client.query(
        "INSERT INTO terms (catalogue, term, docs) SELECT $1, term, 1 FROM unnest($2::text[]) AS term ON CONFLICT (catalogue, term) DO UPDATE SET docs = terms.docs + 1",
        [catalogue, added],
      );
  }

  type Stored = {
    id: string;
    entry_hash: string;
    body_hash: string | null;
    date: string | null;
    keywords: string[];
    body_text: string;
    body_folded: string;
    terms: string[];
  };

  /** Writes the searchable text of an article; the body's (indexedText) stays as it was when `body` is undefined. */
  async function writeText(
    client: pg.PoolClient,
    catalogue: number,
    id: string,
    entry: CatalogueEntry,
    body: IndexedText | undefined,
    old: Stored | undefined,
  ) {
    const head = headTextOf(entry);
    const bodyText = body === undefined ? (old?.body_text ?? "") : clean(body.spaced);
    const bodyFolded = body === undefined ? (old?.body_folded ?? "") : clean(body.folded);
    const folded = foldedWithBody(head, bodyFolded);
    const descriptionText = clean(head.description);
    const { literal, ranking, terms } = tsvectorOf([
      [head.title, "A"],
      [descriptionText, "C"],
      [head.keywords, "B"],
      [folded, "D"],
      [bodyText, "D"],
    ]);
    await client.query(
      "UPDATE articles SET description_text = $2, body_text = $3, body_folded = $4, doc = $5::tsvector, ranking = $6::tsvector WHERE id = $1",
      [id, descriptionText, bodyText, bodyFolded, literal, ranking],
    );
    const before = new Set(old?.terms ?? []);
    const after = new Set(terms);
    await countTerms(
      client,
      catalogue,
      [...before].filter((term) => !after.has(term)).sort(),
      terms.filter((term) => !before.has(term)),
    );
    await client.query("DELETE FROM keywords WHERE article = $1", [id]);
    const keys = keywordLabels(entry.keywords, clean);
    if (keys.size > 0)
      await client.query(
        "INSERT INTO keywords (catalogue, key, article, label) SELECT $1, key, $2, label FROM unnest($3::text[], $4::text[]) AS k (key, label)",
        [catalogue, id, [...keys.keys()], [...keys.values()]],
      );
  }

  const storedBySlug = async (client: pg.PoolClient, catalogue: number, slug: string) =>
    (
      await client.query<Stored>(
        "SELECT id, entry_hash, body_hash, date, keywords, body_text, body_folded, tsvector_to_array(doc) AS terms FROM articles WHERE catalogue = $1 AND slug = $2 FOR UPDATE",
        [catalogue, slug],
      )
    ).rows[0];

  async function upsert(
    client: pg.PoolClient,
    catalogue: number,
    row: ArticleRow,
    old: Stored | undefined,
  ): Promise<string> {
    const values = [
      row.title,
      row.description,
      row.image,
      row.date,
      row.date_iso,
      row.keywords,
      row.entry_hash,
      row.body_hash,
      row.body_wanted,
    ];
    if (old) {
      await client.query(
        "UPDATE articles SET title = $2, description = $3, image = $4, date = $5, date_iso = $6, keywords = $7::jsonb, entry_hash = $8, body_hash = $9, body_wanted = $10 WHERE id = $1",
        [old.id, ...values],
      );
      return old.id;
    }
    const { rows } = await client.query<{ id: string }>(
      "INSERT INTO articles (catalogue, slug, title, description, image, date, date_iso, keywords, entry_hash, body_hash, body_wanted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11) RETURNING id",
      [catalogue, row.slug, ...values],
    );
    return rows[0]!.id;
  }

  /** A result with its snippet, cut here from the stored text as FTS5 cuts it (pg-text.ts). */
  function hitWithSnippet(row: Row & { description_text: string; body_text: string }, phrases: Phrase[]) {
    const body = row.body_text ? snippetOf(row.body_text, phrases, SNIPPET) : "";
    return hitOf(
      row,
      chosenSnippet(body, () => snippetOf(row.description_text, phrases, SNIPPET)),
    );
  }

  async function find({ shape, phrases }: { shape: QueryShape; phrases: Phrase[] }, pageSize: number, offset: number) {
    const { ids: ranked, total, more } = await rankedMatches(await ranking(), shape, offset + pageSize);
    const ids = ranked.slice(offset);
    if (ids.length === 0) return { total, more, hits: [] };
    const rows = await query<Row & { description_text: string; body_text: string }>(
      `SELECT ${ENTRY_COLUMNS_OF_HITS} FROM articles WHERE catalogue = $1 AND id = ANY($2::bigint[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return { total, more, hits: ids.flatMap((id) => (byId.has(id) ? [hitWithSnippet(byId.get(id)!, phrases)] : [])) };
  }

  return {
    putEntries(entries) {
      return write(async (client, catalogue) => {
        const wanted: string[] = [];
        for (const entry of entries) {
          const old = await storedBySlug(client, catalogue, entry.slug);
          const write = entryWrite(entry, old);
          if (!write) continue;
          const id = await upsert(client, catalogue, cleanRow(write.row), old);
          await writeText(client, catalogue, id, write.merged, undefined, old);
          wanted.push(entry.slug);
        }
        return wanted;
      });
    },
    async putArticle(article) {
      const body = await bodyTextOf(article);
      return write(async (client, catalogue) => {
        const row = articleRow(article, body);
        const old = await storedBySlug(client, catalogue, article.slug);
        if (unchanged(old, row)) {
          await client.query("UPDATE articles SET body_wanted = 0 WHERE id = $1 AND body_wanted <> 0", [old!.id]);
          return false;
        }
        const id = await upsert(client, catalogue, cleanRow(row), old);
        // Worked out a piece at a time (indexed-text.server.ts): a long body must not hold every other request.
        await writeText(client, catalogue, id, article, await indexedText(body), old);
        return true;
      });
    },
    remove(slugs) {
      return write(async (client, catalogue) => {
        const { rows } = await client.query<{ terms: string[] }>(
          "DELETE FROM articles WHERE catalogue = $1 AND slug = ANY($2::text[]) RETURNING tsvector_to_array(doc) AS terms",
          [catalogue, slugs.map(clean)],
        );
        for (const row of rows) await countTerms(client, catalogue, row.terms, []);
      });
    },
    async deferBody(slug) {
      await query("UPDATE articles SET body_wanted = 2 WHERE catalogue = $1 AND slug = $2", [clean(slug)]);
    },
    async retryDeferred() {
      await query("UPDATE articles SET body_wanted = 1 WHERE catalogue = $1 AND body_wanted = 2");
    },
    async missingBodies(limit) {
      return (
        await query<{ slug: string }>(
          "SELECT slug FROM articles WHERE catalogue = $1 AND body_wanted = 1 ORDER BY id LIMIT $2",
          [limit],
        )
      ).map((row) => row.slug);
    },
    async bodiesAfter(slug, limit) {
      return (
        await query<{ slug: string }>(
          "SELECT slug FROM articles WHERE catalogue = $1 AND slug > $2 AND body_hash IS NOT NULL ORDER BY slug LIMIT $3",
          [clean(slug), limit],
        )
      ).map((row) => row.slug);
    },
    async slugs() {
      return (await query<{ slug: string }>("SELECT slug FROM articles WHERE catalogue = $1")).map((row) => row.slug);
    },
    async count() {
      const [row] = await query<{ articles: number; withBody: number }>(
        'SELECT count(*)::int AS articles, count(body_hash)::int AS "withBody" FROM articles WHERE catalogue = $1',
      );
      return row!;
    },
    search(text, page, pageSize) {
      return searchInOrder(text, page, pageSize, {
        query: (words, loose) => {
          const shape = queryShape(words, { loose });
          return shape && { shape, phrases: phrasesOf(words, { loose }) };
        },
        find,
        knows: async (spellings) =>
          (
            await query("SELECT docs FROM terms WHERE catalogue = $1 AND term = ANY($2::text[]) AND docs > 0 LIMIT 1", [
              spellings.map(lexeme),
            ])
          ).length > 0,
        closest: (plain) =>
          suggestWordInRounds(plain, (from, to, limit) =>
            query<{ term: string; doc: number }>(
              "SELECT term, docs AS doc FROM terms WHERE catalogue = $1 AND term >= $2 AND term < $3 ORDER BY term LIMIT $4",
              [from, to, limit],
            ),
          ),
      });
    },
    async keywordPage(key, page, pageSize) {
      const [found] = await query<{ label: string; total: number }>(
        "SELECT min(label) AS label, count(*)::int AS total FROM keywords WHERE catalogue = $1 AND key = $2 GROUP BY key",
        [clean(key)],
      );
      if (!found) return undefined;
      const rows = await query<Row>(
        `SELECT a.${ENTRY_COLUMNS.replaceAll(", ", ", a.")} FROM keywords k JOIN articles a ON a.id = k.article WHERE k.catalogue = $1 AND k.key = $2 ORDER BY a.date_iso DESC NULLS LAST, a.id DESC LIMIT $3 OFFSET $4`,
        [clean(key), pageSize, (page - 1) * pageSize],
      );
      return { label: found.label, total: found.total, entries: rows.map(entryOf) };
    },
    async keywords() {
      const rows = await query<{ key: string; label: string; count: number; lastmod: string | null }>(
        'SELECT k.key, min(k.label) AS label, count(*)::int AS count, max(a.date_iso) AS lastmod FROM keywords k JOIN articles a ON a.id = k.article WHERE k.catalogue = $1 GROUP BY k.key ORDER BY k.key COLLATE "C"',
      );
      return rows.map(keywordOf);
    },
    related(about, count, readRate) {
      return relatedInOrder(about, count, readRate, {
        // Words of the keywords alone (weight B), as SQLite's {keywords} column filter.
        candidates: async (words, limit) => {
          const shape = queryShape(words, { loose: true, prefixes: false, weight: "B" });
          if (!shape) return [];
          const ids = await newestKeywordMatches(await ranking(), shape, limit);
          const rows = await query<Row & { date_iso: string | null }>(
            `SELECT ${ENTRY_COLUMNS}, date_iso FROM articles WHERE catalogue = $1 AND id = ANY($2::bigint[])`,
            [ids],
          );
          return rows.map(candidateOf);
        },
        newest: async (slug, limit) =>
          (
            await query<Row>(
              `SELECT ${ENTRY_COLUMNS} FROM articles WHERE catalogue = $1 AND slug <> $2 ORDER BY date_iso DESC NULLS LAST, slug COLLATE "C" LIMIT $3`,
              [clean(slug), limit],
            )
          ).map(entryOf),
      });
    },
    async entries(slugs) {
      const rows = await query<Row>(
        `SELECT ${ENTRY_COLUMNS} FROM articles WHERE catalogue = $1 AND slug = ANY($2::text[])`,
        [slugs.map(clean)],
      );
      const bySlug = new Map(rows.map((row) => [row.slug, entryOf(row)]));
      return slugs.flatMap((slug) => bySlug.get(clean(slug)) ?? []);
    },
    async has(slug) {
      return (await query("SELECT 1 FROM articles WHERE catalogue = $1 AND slug = $2", [clean(slug)])).length > 0;
    },
    async dates(slugs) {
      const rows = await query<{ slug: string; date_iso: string | null }>(
        "SELECT slug, date_iso FROM articles WHERE catalogue = $1 AND slug = ANY($2::text[])",
        [slugs.map(clean)],
      );
      return new Map(rows.flatMap((row) => (row.date_iso ? [[row.slug, row.date_iso] as const] : [])));
    },
    async getState(stateName) {
      return (
        await query<{ value: string }>("SELECT value FROM state WHERE catalogue = $1 AND name = $2", [stateName])
      )[0]?.value;
    },
    async setState(stateName, value) {
      await query(
        "INSERT INTO state (catalogue, name, value) VALUES ($1, $2, $3) ON CONFLICT (catalogue, name) DO UPDATE SET value = excluded.value",
        [stateName, value],
      );
    },
    async lease(holder, ms) {
      // The database's clock, not the origins': machines whose clocks differ still agree on when it ends.
      const rows = await query(
        `INSERT INTO leases (catalogue, holder, until) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (catalogue) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE leases.holder = excluded.holder OR leases.until < clock_timestamp() RETURNING holder`,
        [holder, ms],
      );
      return rows.length > 0;
    },
    async release(holder) {
      await query("DELETE FROM leases WHERE catalogue = $1 AND holder = $2", [holder]);
    },
    // The pool is the process's, shared by every catalogue: closed with them all (app/search/catalogues.server.ts).
    close() {},
  };
}
