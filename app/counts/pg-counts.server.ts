import { randomBytes } from "node:crypto";
import type pg from "pg";
import { connection, run } from "~/database/postgres.server";
import { changesOf, needsOf, type Snapshot } from "./apply";
import { periodSumsQuery, type CountsStore } from "./store";
import { keptFrom, OTHER, type Kind, type Tally } from "./tally";

/**
 * The counts of the catalogue `name` in its PostgreSQL database (decision 036's), shared by every origin
 * that uses it. Writes of one store take turns under an advisory lock, so the source slots and the
 * bitmaps hold whatever the number of origins.
 */
export function openPostgresCounts(pool: pg.Pool, name: string): CountsStore {
  return {
    async salt(day) {
      const found = await run<{ salt: Buffer }>(pool, "SELECT salt FROM count_salts WHERE store = $1 AND day = $2", [
        name,
        day,
      ]);
      if (found[0]) return found[0].salt;
      // Whoever comes first makes it; the others read theirs.
      await run(pool, "INSERT INTO count_salts (store, day, salt) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
        name,
        day,
        randomBytes(32),
      ]);
      await run(pool, "DELETE FROM count_salts WHERE store = $1 AND day < $2", [name, keptFrom(day)]);
      await run(pool, "DELETE FROM count_bitmaps WHERE store = $1 AND day < $2", [name, keptFrom(day)]);
      const made = await run<{ salt: Buffer }>(pool, "SELECT salt FROM count_salts WHERE store = $1 AND day = $2", [
        name,
        day,
      ]);
      return made[0]!.salt;
    },
    async write(tallies, marks) {
      const client = await connection(pool);
      const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[]) =>
        (await client.query<T>(text, [name, ...values])).rows;
      try {
        await client.query("BEGIN");
        await query("SELECT pg_advisory_xact_lock(hashtext('counts ' || $1))", []);
        const needs = needsOf(tallies, marks);
        // One statement at a time: the client is one connection.
        const snapshot: Snapshot = { bitmaps: [], sources: [] };
        for (const { day, page } of needs.bitmaps) {
          snapshot.bitmaps.push(
            (
              await query<{ bits: Buffer }>(
                "SELECT bits FROM count_bitmaps WHERE store = $1 AND day = $2 AND page = $3",
                [day, page],
              )
            )[0]?.bits,
          );
        }
        for (const { day, kind } of needs.sources) {
          const keys = await query<{ key: string }>(
            "SELECT key FROM counts WHERE store = $1 AND day = $2 AND kind = $3 AND page = '' AND key <> $4",
            [day, kind, OTHER],
          );
          snapshot.sources.push(new Set(keys.map((row) => row.key)));
        }
        const changes = changesOf(tallies, marks, needs, snapshot);
        for (const { day, page, bits } of changes.bitmaps) {
          await query(
            "INSERT INTO count_bitmaps (store, day, page, bits) VALUES ($1, $2, $3, $4) ON CONFLICT (store, day, page) DO UPDATE SET bits = excluded.bits",
            [day, page, bits],
          );
        }
        for (const { day, kind, page, key, n } of changes.tallies) {
          await query(
            "INSERT INTO counts (store, day, kind, page, key, n) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (store, day, kind, page, key) DO UPDATE SET n = counts.n + excluded.n",
            [day, kind, page, key, n],
          );
        }
        await client.query("COMMIT");
        client.release();
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release(true);
        throw error;
      }
    },
    async read(from, to) {
      const rows = await run<Tally & { n: string }>(
        pool,
        "SELECT day, kind, page, key, n FROM counts WHERE store = $1 AND day >= $2 AND day <= $3 ORDER BY day, kind, page, key",
        [name, from, to],
      );
      return rows.map((row) => ({ ...row, kind: row.kind as Kind, n: Number(row.n) }));
    },
    async sums(kinds, from, to) {
      const rows = await run<{ kind: Kind; page: string; n: string }>(
        pool,
        "SELECT kind, page, sum(n) AS n FROM counts WHERE store = $1 AND day >= $2 AND day <= $3 AND kind = ANY($4::text[]) AND page <> '' GROUP BY kind, page",
        [name, from, to, kinds],
      );
      return rows.map((row) => ({ ...row, n: Number(row.n) }));
    },
    async close() {},
  };
}

/** The counts of a period of the store `name`, summed for the operator's report (periodSumsQuery). */
export async function readPostgresPeriod(
  pool: pg.Pool,
  name: string,
  from: string,
  to: string,
): Promise<(Omit<Tally, "kind"> & { kind: string })[]> {
  const rows = await run<Tally & { n: string }>(pool, periodSumsQuery(["$2", "$3"], "store = $1 AND "), [
    name,
    from,
    to,
  ]);
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}
