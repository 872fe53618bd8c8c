import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { changesOf, needsOf } from "./apply";
import { periodSumsQuery, type CountsStore } from "./store";
import { keptFrom, OTHER, type Kind, type Mark, type Tally } from "./tally";
import { openStoreConnection } from "~/database/sqlite-connection.server";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS count_salts (day TEXT PRIMARY KEY, salt BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS count_bitmaps (day TEXT NOT NULL, page TEXT NOT NULL, bits BLOB NOT NULL, PRIMARY KEY (day, page)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counts (
  day TEXT NOT NULL, kind TEXT NOT NULL, page TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (day, kind, page, key)
) WITHOUT ROWID;
`;

/**
 * The counts of a period in a catalogue file, summed for the operator's report (periodSumsQuery), of every
 * kind (those of app/counts and those other parts of the site add), through a read-only connection of
 * their own: the report never writes. A file without counts yet has none.
 */
export function readSqlitePeriod(file: string, from: string, to: string): (Omit<Tally, "kind"> & { kind: string })[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const counted = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'counts'").get();
    return counted
      ? db.prepare<[string, string], Omit<Tally, "kind"> & { kind: string }>(periodSumsQuery(["?", "?"])).all(from, to)
      : [];
  } finally {
    db.close();
  }
}

/**
 * The counts in the site's catalogue file (app/search/sqlite-catalogue.server.ts), through a connection of
 * their own: the processes of one machine share the file, and a write transaction (BEGIN IMMEDIATE) holds
 * the others off while it runs. Every statement is synchronous, as the catalogue's: a transaction left
 * open across an await would make another connection of this process wait for it, blocking the thread.
 */
export function openSqliteCounts(file: string): CountsStore {
  const db = openStoreConnection(file);
  db.exec(SCHEMA);
  const statements = {
    salt: db.prepare<[string], { salt: Buffer }>("SELECT salt FROM count_salts WHERE day = ?"),
    makeSalt: db.prepare("INSERT OR IGNORE INTO count_salts (day, salt) VALUES (?, ?)"),
    forgetSalts: db.prepare("DELETE FROM count_salts WHERE day < ?"),
    forgetBitmaps: db.prepare("DELETE FROM count_bitmaps WHERE day < ?"),
    bits: db.prepare<[string, string], { bits: Buffer }>("SELECT bits FROM count_bitmaps WHERE day = ? AND page = ?"),
    setBits: db.prepare(
      "INSERT INTO count_bitmaps (day, page, bits) VALUES (?, ?, ?) ON CONFLICT (day, page) DO UPDATE SET bits = excluded.bits",
    ),
    keys: db.prepare<[string, string, string], { key: string }>(
      "SELECT key FROM counts WHERE day = ? AND kind = ? AND page = '' AND key <> ?",
    ),
    add: db.prepare(
      "INSERT INTO counts (day, kind, page, key, n) VALUES (@day, @kind, @page, @key, @n) ON CONFLICT (day, kind, page, key) DO UPDATE SET n = n + excluded.n",
    ),
    read: db.prepare<[string, string], Tally>(
      "SELECT day, kind, page, key, n FROM counts WHERE day >= ? AND day <= ? ORDER BY day, kind, page, key",
    ),
    sums: db.prepare<[string, string, string], { kind: Kind; page: string; n: number }>(
      "SELECT kind, page, sum(n) AS n FROM counts WHERE day >= ? AND day <= ? AND kind IN (SELECT value FROM json_each(?)) AND page <> '' GROUP BY kind, page",
    ),
  };
  /** Read, worked out and written in one synchronous transaction: nothing else runs on the thread meanwhile. */
  const write = db.transaction((tallies: Tally[], marks: Mark[]) => {
    const needs = needsOf(tallies, marks);
    const snapshot = {
      bitmaps: needs.bitmaps.map(({ day, page }) => statements.bits.get(day, page)?.bits),
      sources: needs.sources.map(
        ({ day, kind }) => new Set(statements.keys.all(day, kind, OTHER).map((row) => row.key)),
      ),
    };
    const changes = changesOf(tallies, marks, needs, snapshot);
    for (const { day, page, bits } of changes.bitmaps) statements.setBits.run(day, page, bits);
    for (const tally of changes.tallies) statements.add.run(tally);
  });

  return {
    async salt(day) {
      const found = statements.salt.get(day)?.salt;
      if (found) return found;
      db.transaction(() => {
        statements.makeSalt.run(day, randomBytes(32));
        statements.forgetSalts.run(keptFrom(day));
        statements.forgetBitmaps.run(keptFrom(day));
      }).immediate();
      return statements.salt.get(day)!.salt;
    },
    async write(tallies, marks) {
      write.immediate(tallies, marks);
    },
    async read(from, to) {
      return statements.read.all(from, to).map((row) => ({ ...row, kind: row.kind as Kind }));
    },
    async sums(kinds, from, to) {
      return statements.sums.all(from, to, JSON.stringify(kinds));
    },
    async close() {
      db.close();
    },
  };
}
