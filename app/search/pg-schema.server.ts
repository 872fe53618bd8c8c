import type pg from "pg";

/**
 * The catalogue's schema in PostgreSQL, as plain versioned SQL (docs/decisions/036). Each migration runs
 * once, in a transaction, and is recorded in schema_migrations; origins starting together take turns by
 * an advisory lock. Add a migration at the end; never change one that has shipped.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
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
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
/** PostgreSQL 13 and later: phrase search, prefix search and ts_rank as used here, and Debian 11's version. */
const MIN_SERVER_VERSION = 130_000;
/** The first key of the catalogue's advisory locks ("cata" in ASCII); the second is 0 while migrating, else a catalogue's id. */
export const LOCKS = 0x63617461;

export class DatabaseTooOldError extends Error {}

/** Brings the schema up to date; throws DatabaseTooOldError for a server or schema this code cannot use. */
export async function migrate(pool: pg.Pool): Promise<{ applied: number[] }> {
  const client = await pool.connect();
  try {
    const { rows: version } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    const serverVersion = Number(version[0]!.server_version_num);
    if (serverVersion < MIN_SERVER_VERSION)
      throw new DatabaseTooOldError(`PostgreSQL ${Math.floor(serverVersion / 10_000)} is too old: the catalogue needs PostgreSQL ${MIN_SERVER_VERSION / 10_000} or newer`);
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1, 0)", [LOCKS]);
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    if (newest > SCHEMA_VERSION)
      throw new DatabaseTooOldError(`its schema is version ${newest}, newer than this site's ${SCHEMA_VERSION}: run the newer site, or give this one another database`);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
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
