import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type pg from "pg";
import { createPacer } from "./pacer";
import { run } from "~/database/postgres.server";

/**
 * The pace of the catalogue's calls to one backend, CATALOGUE_CALLS_PER_SECOND (docs/decisions/053). In a
 * process, the syncs of every site the backend serves share one pacer. The lease lets one origin sync a
 * catalogue, but the catalogues of one backend (several sites, or several domains of one) may be synced by
 * as many origins. So the origins that share the catalogues take turns for each backend: with a catalogue
 * database, every origin of every machine (a row of `paces`); with SQLite files, the processes of the
 * machine (a file beside them). Each turn holds when the backend's next call may start.
 */
export type SharedBy = { pool: pg.Pool } | { dir: string };

export function createBackendPacer(backend: string, callsPerSecond: number, shared: SharedBy): () => Promise<void> {
  const key = createHash("sha256").update(backend).digest("base64url").slice(0, 22);
  const take = "pool" in shared ? (gapMs: number) => takeTurn(shared.pool, key, gapMs) : fileTurns(shared.dir, key);
  return createPacer(callsPerSecond, undefined, undefined, take);
}

/**
 * Takes the backend's turn if it is free (answers 0: call now) and makes the next one due a gap from now;
 * else answers how long until it is free. By the database's clock alone: origins whose clocks differ still
 * keep the gaps.
 */
async function takeTurn(pool: pg.Pool, key: string, gapMs: number): Promise<number> {
  const [row] = await run<{ taken: boolean; wait: number }>(
    pool,
    `WITH taken AS (
       INSERT INTO paces (backend, next_at) VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (backend) DO UPDATE SET next_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE paces.next_at <= clock_timestamp()
       RETURNING true AS taken, 0::float8 AS wait)
     SELECT taken, wait FROM taken
     UNION ALL
     SELECT false, extract(epoch FROM next_at - clock_timestamp())::float8 * 1000 FROM paces WHERE backend = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
    [key, gapMs],
  );
  if (row?.taken) return 0;
  // Taken by another origin a moment ago (this statement saw the table as it was before): ask again at once.
  return Math.max(1, row?.wait ?? 0);
}

/** The same turns in a SQLite file of the catalogues' folder, for the processes of one machine (one clock). */
function fileTurns(dir: string, key: string) {
  let take: ((gapMs: number) => number) | undefined;
  return async (gapMs: number) => {
    if (!take) {
      mkdirSync(dir, { recursive: true });
      const db = new Database(path.join(dir, "paces.sqlite"));
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 5000");
      db.exec("CREATE TABLE IF NOT EXISTS paces (backend TEXT PRIMARY KEY, next_at INTEGER NOT NULL)");
      const read = db.prepare<[string], { next_at: number }>("SELECT next_at FROM paces WHERE backend = ?");
      const write = db.prepare(
        "INSERT INTO paces (backend, next_at) VALUES (?, ?) ON CONFLICT (backend) DO UPDATE SET next_at = excluded.next_at",
      );
      const turn = db.transaction((gap: number) => {
        const now = Date.now();
        const wait = (read.get(key)?.next_at ?? -Infinity) - now;
        if (wait > 0) return wait;
        write.run(key, now + gap);
        return 0;
      });
      take = (gap) => turn.immediate(gap);
    }
    return take(gapMs);
  };
}
