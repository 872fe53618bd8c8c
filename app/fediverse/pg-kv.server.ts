import type { KvKey, KvStore, KvStoreListEntry } from "@fedify/fedify";
import type pg from "pg";
import { connection, run } from "~/database/postgres.server";
import { expiryOf, keyOf, keyText, prefixText, sameValue, SWEEP_EVERY_MS } from "./kv-rules";

const LIVE = "(expires IS NULL OR expires > now())";
const at = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * A site's federation state in the catalogue database, under the catalogue's name, shared by every origin
 * that uses it: each origin signs with the same keys and sees the same followers.
 */
export function openPostgresKv(pool: pg.Pool, store: string): KvStore {
  let swept = 0;
  const upsert =
    "INSERT INTO fediverse_kv (store, key, value, expires) VALUES ($1, $2, $3, $4) ON CONFLICT (store, key) DO UPDATE SET value = excluded.value, expires = excluded.expires";
  return {
    async get<T>(key: KvKey) {
      const rows = await run<{ value: string }>(
        pool,
        `SELECT value FROM fediverse_kv WHERE store = $1 AND key = $2 AND ${LIVE}`,
        [store, keyText(key)],
      );
      return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
    },
    async set(key, value, options) {
      const now = Date.now();
      if (now - swept > SWEEP_EVERY_MS) {
        swept = now;
        await run(pool, "DELETE FROM fediverse_kv WHERE store = $1 AND expires <= now()", [store]);
      }
      await run(pool, upsert, [store, keyText(key), JSON.stringify(value), at(expiryOf(options, now))]);
    },
    async delete(key) {
      await run(pool, "DELETE FROM fediverse_kv WHERE store = $1 AND key = $2", [store, keyText(key)]);
    },
    async cas(key, expected, value, options) {
      const client = await connection(pool);
      try {
        await client.query("BEGIN");
        // The row is locked for the swap; an absent one is inserted only if no other origin did meanwhile.
        const { rows } = await client.query<{ value: string; live: boolean }>(
          `SELECT value, ${LIVE} AS live FROM fediverse_kv WHERE store = $1 AND key = $2 FOR UPDATE`,
          [store, keyText(key)],
        );
        const current = rows[0]?.live ? (JSON.parse(rows[0].value) as unknown) : undefined;
        let swapped = sameValue(current, expected);
        if (swapped) {
          const values = [store, keyText(key), JSON.stringify(value), at(expiryOf(options, Date.now()))];
          const written = rows[0]
            ? await client.query(upsert, values)
            : await client.query(
                "INSERT INTO fediverse_kv (store, key, value, expires) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                values,
              );
          swapped = written.rowCount === 1;
        }
        await client.query("COMMIT");
        client.release();
        return swapped;
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      const rows = prefix
        ? await run<{ key: string; value: string }>(
            pool,
            `SELECT key, value FROM fediverse_kv WHERE store = $1 AND (key = $2 OR starts_with(key, $3)) AND ${LIVE} ORDER BY key`,
            [store, keyText(prefix), prefixText(prefix)],
          )
        : await run<{ key: string; value: string }>(
            pool,
            `SELECT key, value FROM fediverse_kv WHERE store = $1 AND ${LIVE} ORDER BY key`,
            [store],
          );
      for (const row of rows) yield { key: keyOf(row.key), value: JSON.parse(row.value) as unknown };
    },
  };
}
