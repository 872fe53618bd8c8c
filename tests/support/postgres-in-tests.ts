import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createPool } from "~/database/postgres.server";
import { startPostgres } from "./postgres.mjs";

/**
 * A throwaway PostgreSQL server for the tests of one file: started before them, stopped after them with the
 * pools the tests opened on it. `pool()` opens one more (another origin's, say).
 */
export function postgresForTests() {
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await postgres?.stop();
  });
  return {
    pool(poolSize = 4): pg.Pool {
      if (!postgres) throw new Error("PostgreSQL is not started yet: ask for a pool in a test");
      const pool = createPool({ url: postgres.url, poolSize });
      pools.push(pool);
      return pool;
    },
  };
}
