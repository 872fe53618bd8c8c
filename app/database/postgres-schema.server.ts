import type pg from "pg";

/**
 * The catalogue's schema in PostgreSQL, as plain versioned SQL (docs/decisions/036). Each migration runs
 * once, in a transaction, and is recorded in schema_migrations; origins starting together take turns by
 * an advisory lock. Add a migration at the end; never change one that has shipped.
 */
export const MIGRATIONS: readonly { version: number; sql: string; note?: string }[] = [
  {
    version: 1,
    sql: `
CREATE TABLE catalogues (id serial PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE articles (
  id bigserial PRIMARY KEY,
  catalogue integer NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
  slug text NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  image text,
  date text,
  date_iso text,
  keywords jsonb NOT NULL DEFAULT '[]',
  entry_hash text NOT NULL,
  body_hash text,
  -- 1: the body is wanted, 2: it failed and waits for the next sweep, 0: stored.
  body_wanted smallint NOT NULL DEFAULT 1,
  -- The texts as the tokenizer spaced them (snippets are cut from these) and the body's folded forms.
  description_text text NOT NULL DEFAULT '',
  body_text text NOT NULL DEFAULT '',
  body_folded text NOT NULL DEFAULT '',
  doc tsvector NOT NULL DEFAULT '',
  -- The words that rank an article: its title, keywords and description, and its body's most used.
  ranking tsvector NOT NULL DEFAULT '',
  UNIQUE (catalogue, slug)
);
CREATE INDEX articles_doc ON articles USING gin (doc);
CREATE INDEX articles_by_date ON articles (catalogue, date_iso DESC NULLS LAST, id DESC);
CREATE INDEX articles_wanting_body ON articles (catalogue, id) WHERE body_wanted <> 0;
CREATE TABLE keywords (
  catalogue integer NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
  key text NOT NULL,
  article bigint NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  label text NOT NULL,
  PRIMARY KEY (catalogue, key, article)
);
CREATE INDEX keywords_of_article ON keywords (article);
-- How many articles hold each word, for suggestions (SQLite's fts5vocab).
CREATE TABLE terms (
  catalogue integer NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
  term text COLLATE "C" NOT NULL,
  docs integer NOT NULL,
  PRIMARY KEY (catalogue, term)
);
CREATE TABLE state (
  catalogue integer NOT NULL REFERENCES catalogues (id) ON DELETE CASCADE,
  name text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (catalogue, name)
);
CREATE TABLE leases (
  catalogue integer PRIMARY KEY REFERENCES catalogues (id) ON DELETE CASCADE,
  holder text NOT NULL,
  until timestamptz NOT NULL
);
`,
  },
  {
    version: 2,
    // The daily counts of each catalogue's site (app/counts, docs/decisions/050), by the catalogue's name.
    sql: `
CREATE TABLE count_salts (store text NOT NULL, day text NOT NULL, salt bytea NOT NULL, PRIMARY KEY (store, day));
CREATE TABLE count_bitmaps (store text NOT NULL, day text NOT NULL, page text NOT NULL, bits bytea NOT NULL, PRIMARY KEY (store, day, page));
CREATE TABLE counts (
  store text NOT NULL, day text NOT NULL, kind text NOT NULL, page text NOT NULL, key text NOT NULL, n bigint NOT NULL,
  PRIMARY KEY (store, day, kind, page, key)
);
`,
  },
  {
    version: 3,
    // When the next call of the catalogue's syncs to each backend (by a hash of its address) may start: one
    // pace per backend for every origin sharing the database (app/search/backend-pace.server.ts, docs/decisions/053).
    sql: `
CREATE TABLE paces (backend text PRIMARY KEY, next_at timestamptz NOT NULL);
`,
  },
  {
    version: 4,
    // Ranking bounded at any size, as the SQLite store's (docs/decisions/055, app/search/pg-ranking.server.ts):
    // each article's key by its day of publication and id (app/search/text-key.ts's, in SQL); the words of its
    // title, keywords and description, and of its keywords alone, each with their own index; and every index
    // of words also holding the article's catalogue and period of 32 days, so that the newest matches are
    // found among the newest articles without reading the others. All are computed from the row, so no write
    // can leave them behind; the functions call built-in ones alone (a restore runs them with an empty
    // search_path). The small word lists stay in the row (storage MAIN): each match is scored and sorted on
    // them. Each catalogue counts its articles (a trigger per statement), for the ranking's bounds. Adding the
    // columns rewrites the table once: minutes for 100,000 articles, before the site starts.
    note: "rewrites the table of articles and indexes it again: minutes for 100,000 articles",
    sql: `
CREATE FUNCTION catalogue_day(date_iso text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN date_iso LIKE '+%' THEN 1048575
    WHEN date_iso ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' AND substr(date_iso, 1, 4) <> '0000' THEN
      LEAST(GREATEST(make_date(substr(date_iso, 1, 4)::int, substr(date_iso, 6, 2)::int, substr(date_iso, 9, 2)::int) - DATE '1970-01-01', 0), 1048575)
    ELSE 0
  END
$$;
CREATE FUNCTION catalogue_marks(catalogue integer, day bigint) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(ARRAY['#' || catalogue::text, '@' || catalogue::text || ':' || lpad((day / 32)::text, 5, '0')])
$$;
ALTER TABLE articles
  ADD COLUMN newest bigint GENERATED ALWAYS AS (catalogue_day(date_iso) * 4294967296 + id % 4294967296) STORED,
  ADD COLUMN head tsvector GENERATED ALWAYS AS (ts_filter(doc, '{a,b,c}') || catalogue_marks(catalogue, catalogue_day(date_iso))) STORED,
  ADD COLUMN keyword_doc tsvector GENERATED ALWAYS AS (ts_filter(doc, '{b}') || catalogue_marks(catalogue, catalogue_day(date_iso))) STORED,
  ALTER COLUMN ranking SET STORAGE MAIN,
  ALTER COLUMN head SET STORAGE MAIN,
  ALTER COLUMN keyword_doc SET STORAGE MAIN;
DROP INDEX articles_doc;
CREATE INDEX articles_doc ON articles USING gin ((doc || catalogue_marks(catalogue, catalogue_day(date_iso))));
CREATE INDEX articles_head ON articles USING gin (head);
CREATE INDEX articles_keywords ON articles USING gin (keyword_doc);
CREATE INDEX articles_newest ON articles (catalogue, newest DESC);
ALTER TABLE catalogues ADD COLUMN articles integer NOT NULL DEFAULT 0;
UPDATE catalogues SET articles = (SELECT count(*) FROM articles WHERE articles.catalogue = catalogues.id);
CREATE FUNCTION catalogue_count_articles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE catalogues SET articles = articles + added.n FROM (SELECT catalogue, count(*)::int AS n FROM new_rows GROUP BY catalogue) AS added WHERE catalogues.id = added.catalogue;
  ELSE
    UPDATE catalogues SET articles = articles - gone.n FROM (SELECT catalogue, count(*)::int AS n FROM old_rows GROUP BY catalogue) AS gone WHERE catalogues.id = gone.catalogue;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER articles_counted_in AFTER INSERT ON articles REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalogue_count_articles();
CREATE TRIGGER articles_counted_out AFTER DELETE ON articles REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION catalogue_count_articles();
`,
  },
  {
    version: 5,
    // Each followable site's federation state (app/fediverse): its keys, its followers and Fedify's caches,
    // by the catalogue's name. Values are JSON as text, so a compare-and-swap compares what was written.
    sql: `
CREATE TABLE fediverse_kv (store text NOT NULL, key text NOT NULL, value text NOT NULL, expires timestamptz, PRIMARY KEY (store, key));
CREATE INDEX fediverse_kv_expiring ON fediverse_kv (expires) WHERE expires IS NOT NULL;
-- Deliveries waiting (app/fediverse/pg-queue.server.ts): each taken by one origin at a time.
CREATE TABLE fediverse_queue (
  id bigserial PRIMARY KEY,
  store text NOT NULL,
  message text NOT NULL,
  ordering_key text,
  due_at timestamptz NOT NULL,
  taken_until timestamptz
);
CREATE INDEX fediverse_queue_due ON fediverse_queue (store, due_at);
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
/** PostgreSQL 13 and later: phrase search, prefix search and ts_rank as used here, and Debian 11's version. */
const MIN_SERVER_VERSION = 130_000;
/** The first key of the catalogue's advisory locks ("cata" in ASCII); the second is 0 while migrating, else a catalogue's id. */
export const LOCKS = 0x63617461;

export class DatabaseTooOldError extends Error {}

/** A migration may take minutes on a large catalogue: neither the server's nor the pool's statement timeout holds it. */
const MIGRATION_TIMEOUT_MS = 6 * 3600_000;
/** A statement with the pool's read timeout lifted too (pg reads query_timeout per query; its types omit it). */
const patient = (text: string, values: unknown[] = []) =>
  ({ text, values, query_timeout: MIGRATION_TIMEOUT_MS }) as pg.QueryConfig;

/**
 * Brings the schema up to date, telling `onMigrate` of each migration before it runs; throws
 * DatabaseTooOldError for a server or schema this code cannot use.
 */
export async function migrate(
  pool: pg.Pool,
  onMigrate: (version: number, note?: string) => void = () => {},
): Promise<{ applied: number[] }> {
  const client = await pool.connect();
  try {
    const { rows: version } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    const serverVersion = Number(version[0]!.server_version_num);
    if (serverVersion < MIN_SERVER_VERSION)
      throw new DatabaseTooOldError(
        `PostgreSQL ${Math.floor(serverVersion / 10_000)} is too old: the catalogue needs PostgreSQL ${MIN_SERVER_VERSION / 10_000} or newer`,
      );
    await client.query("BEGIN");
    await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
    // Waiting for another origin's migration counts too.
    await client.query(patient("SELECT pg_advisory_xact_lock($1, 0)", [LOCKS]));
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    if (newest > SCHEMA_VERSION)
      throw new DatabaseTooOldError(
        `its schema is version ${newest}, newer than this site's ${SCHEMA_VERSION}: run the newer site, or give this one another database`,
      );
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      onMigrate(migration.version, migration.note);
      await client.query(patient(migration.sql));
      await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [migration.version]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return { applied };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
