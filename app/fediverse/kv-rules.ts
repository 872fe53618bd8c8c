import type { KvKey, KvStoreSetOptions } from "@fedify/fedify";

/**
 * What the two stores of a site's federation state (SQLite, PostgreSQL) share: how a key is written, how a
 * prefix is matched and when an entry expires. Fedify keeps its caches, inbox idempotence and our followers
 * and keys in them (app/fediverse/federation.server.ts).
 */

/** A key as stored: its parts as a JSON array, so no part can run into the next. */
export const keyText = (key: KvKey) => JSON.stringify(key);

export const keyOf = (text: string) => JSON.parse(text) as KvKey;

/**
 * The stored keys under a prefix start with this text: the prefix's parts, then a comma before the next
 * part; the prefix itself is the key keyText(prefix).
 */
export const prefixText = (prefix: KvKey) => `${keyText(prefix).slice(0, -1)},`;

/** When an entry set now with these options expires, in ms since the epoch; none without a TTL. */
export function expiryOf(options: KvStoreSetOptions | undefined, now: number): number | null {
  const ttl = options?.ttl;
  if (!ttl) return null;
  const ms = ttl.total({ unit: "millisecond" });
  return Number.isFinite(ms) && ms > 0 ? now + ms : now;
}

/** Two stored values are the same when their JSON is (a CAS's expected value against what is there). */
export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** How often a store removes the entries that have expired, on a write. */
export const SWEEP_EVERY_MS = 60_000;
