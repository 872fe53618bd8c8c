import Database from "better-sqlite3";

/**
 * A connection to a site's store file (its catalogue, counts and federation state share it), as every part
 * opens one: write-ahead log, so readers never wait for a writer; NORMAL sync, safe with it; and up to 5 s
 * of waiting for another connection's write, as the processes of one machine share the file.
 */
export function openStoreConnection(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  return db;
}
