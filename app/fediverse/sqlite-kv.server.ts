import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import { expiryOf, keyOf, keyText, prefixText, sameValue, SWEEP_EVERY_MS } from "./kv-rules";
import { openStoreConnection } from "~/database/sqlite-connection.server";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fediverse_kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER) WITHOUT ROWID;
`;

type Row = { value: string; expires: number | null };

/**
 * A site's federation state in its catalogue file (beside the catalogue and the counts), through a
 * connection of its own. Statements are synchronous, so a compare-and-swap is one transaction.
 */
export function openSqliteKv(file: string, now: () => number = Date.now): KvStore & { close(): void } {
  const db = openStoreConnection(file);
  db.exec(SCHEMA);
  const statements = {
    get: db.prepare<[string], Row>("SELECT value, expires FROM fediverse_kv WHERE key = ?"),
    set: db.prepare(
      "INSERT INTO fediverse_kv (key, value, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires = excluded.expires",
    ),
    delete: db.prepare("DELETE FROM fediverse_kv WHERE key = ?"),
    sweep: db.prepare("DELETE FROM fediverse_kv WHERE expires IS NOT NULL AND expires <= ?"),
    under: db.prepare<[string, string, string, number], { key: string; value: string }>(
      "SELECT key, value FROM fediverse_kv WHERE (key = ? OR substr(key, 1, length(?)) = ?) AND (expires IS NULL OR expires > ?) ORDER BY key",
    ),
    all: db.prepare<[number], { key: string; value: string }>(
      "SELECT key, value FROM fediverse_kv WHERE expires IS NULL OR expires > ? ORDER BY key",
    ),
  };
  let swept = 0;
  const read = (key: KvKey): unknown => {
    const row = statements.get.get(keyText(key));
    if (!row || (row.expires !== null && row.expires <= now())) return undefined;
    return JSON.parse(row.value) as unknown;
  };
  const write = (key: KvKey, value: unknown, options?: KvStoreSetOptions) => {
    const at = now();
    if (at - swept > SWEEP_EVERY_MS) {
      swept = at;
      statements.sweep.run(at);
    }
    statements.set.run(keyText(key), JSON.stringify(value), expiryOf(options, at));
  };
  const swap = db.transaction((key: KvKey, expected: unknown, value: unknown, options?: KvStoreSetOptions) => {
    if (!sameValue(read(key), expected)) return false;
    write(key, value, options);
    return true;
  });

  return {
    get: <T>(key: KvKey) => Promise.resolve(read(key) as T | undefined),
    set: (key, value, options) => Promise.resolve(write(key, value, options)),
    delete: (key) => Promise.resolve(void statements.delete.run(keyText(key))),
    cas: (key, expected, value, options) => Promise.resolve(swap.immediate(key, expected, value, options)),
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const rows = prefix
        ? statements.under.all(keyText(prefix), prefixText(prefix), prefixText(prefix), now())
        : statements.all.all(now());
      for (const row of rows) yield { key: keyOf(row.key), value: JSON.parse(row.value) as unknown };
    },
    close: () => db.close(),
  };
}
