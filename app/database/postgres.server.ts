import pg from "pg";
import { DatabaseTooOldError, migrate } from "./postgres-schema.server";

/**
 * The process's connection pool to the catalogue's PostgreSQL (docs/decisions/036): bounded, quick to give
 * up on a database that does not answer (a search then shows its "unavailable" page, other pages do not
 * wait), and never fatal when the database goes away: the pool reconnects when it is back.
 */

export type DatabaseSettings = { url: string; poolSize: number };

/** How long a connection or a statement may take before the request is answered without the catalogue. */
const CONNECT_TIMEOUT_MS = 3000;
const STATEMENT_TIMEOUT_MS = 10_000;

/** After a connection could not be made, how long requests fail at once instead of waiting for another. */
const OUTAGE_MS = 5000;
const downUntil = new WeakMap<pg.Pool, number>();

/**
 * A connection of the pool. A database that does not answer (a machine gone, packets dropped) would make
 * every request that reads the catalogue wait CONNECT_TIMEOUT_MS: after one failed connection, the next
 * OUTAGE_MS fail at once, and pages that can do without the catalogue do.
 */
export async function connection(pool: pg.Pool): Promise<pg.PoolClient> {
  if (Date.now() < (downUntil.get(pool) ?? 0)) throw new Error("the catalogue database did not answer a moment ago");
  try {
    return await pool.connect();
  } catch (error) {
    downUntil.set(pool, Date.now() + OUTAGE_MS);
    throw error;
  }
}

/**
 * Statements are prepared on each connection the first time it runs them, under a name per text: a results
 * page's six statements were otherwise parsed and planned again for every request, about a millisecond of
 * the database's CPU. The texts are the code's own, a few dozen; past MAX_PREPARED, others run unprepared.
 */
const MAX_PREPARED = 200;
const preparedNames = new Map<string, string>();
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED)
    preparedNames.set(text, (name = `site_${preparedNames.size}`));
  return name;
}

/** One statement on a connection of the pool; a connection that failed is closed, not given back. */
export async function run<T extends pg.QueryResultRow>(pool: pg.Pool, text: string, values: unknown[]): Promise<T[]> {
  const client = await connection(pool);
  try {
    const { rows } = await client.query<T>({ name: preparedName(text), text, values });
    client.release();
    return rows;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/** The address without its password, for messages. */
export function shownAddress(url: string): string {
  try {
    const address = new URL(url);
    address.password = "";
    return `${address.protocol}//${address.username ? `${address.username}@` : ""}${address.host}${address.pathname}`;
  } catch {
    return "(an address that cannot be read)";
  }
}

export function createPool({ url, poolSize }: DatabaseSettings): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 1000,
    application_name: "site-catalogue",
    // A word found in most articles makes the planner scan the table, unpacking every article's word list
    // to test it (15 ms for 2,000 matches here); the GIN index answers without unpacking (2 ms). Every
    // query of the catalogue has an index to use: scans are for when nothing else can answer.
    options: "-c enable_seqscan=off",
  });
  let warned = false;
  // An idle connection the server closed (a restart, a failover): the pool drops it and makes new ones.
  pool.on("error", (error) => {
    if (!warned)
      console.warn(
        `Catalogue database ${shownAddress(url)}: connection lost (${error.message}); searches fail until it is back`,
      );
    warned = true;
  });
  pool.on("connect", () => {
    if (warned) console.warn(`Catalogue database ${shownAddress(url)}: connected again`);
    warned = false;
  });
  return pool;
}

/**
 * Connects and migrates, for the start of the server. Answers a one-line reason when the database cannot be
 * used (unreachable, refusing us, or too old for this code): the server stops with it.
 */
export async function prepareDatabase(
  pool: pg.Pool,
  url: string,
): Promise<{ ok: true; applied: number[] } | { ok: false; reason: string }> {
  try {
    const log = (version: number, note?: string) =>
      console.log(
        `Catalogue database ${shownAddress(url)}: migrating the schema to version ${version}${note ? ` (${note})` : ""}`,
      );
    return { ok: true, ...(await migrate(pool, log)) };
  } catch (error) {
    const shown = shownAddress(url);
    if (error instanceof DatabaseTooOldError)
      return { ok: false, reason: `Catalogue database ${shown} cannot be used: ${error.message}` };
    const { code, message } = error as NodeJS.ErrnoException;
    // A system error's code says it ("ECONNREFUSED"); a server's refusal says it in its message.
    const why = (
      code && message?.includes(code) ? code : [code, message].filter(Boolean).join(" ") || "no answer"
    ).replace(/\s+/g, " ");
    return { ok: false, reason: `Catalogue database ${shown} cannot be reached: ${why}` };
  }
}
