// The two stores of a site's federation state keep Fedify's contract alike: what is set is read back, a
// prefix lists its own keys and no others, an entry expires after its TTL, and a compare-and-swap swaps only
// from the value it expects, once when two origins race.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { KvKey, KvStore } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "~/database/postgres-schema.server";
import { openPostgresKv } from "~/fediverse/pg-kv.server";
import { openSqliteKv } from "~/fediverse/sqlite-kv.server";
import { postgresForTests } from "../../support/postgres-in-tests";

const dir = mkdtempSync(path.join(tmpdir(), "fediverse-kv-"));
const postgres = postgresForTests();
let stores = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each kind opens a fresh store, and a second handle on the same one (another connection, or another origin). */
const kinds: Record<string, () => Promise<[KvStore, KvStore]>> = {
  sqlite: async () => {
    const file = path.join(dir, `store-${++stores}.sqlite`);
    return [openSqliteKv(file), openSqliteKv(file)];
  },
  postgres: async () => {
    const pool = postgres.pool();
    const other = postgres.pool();
    await migrate(pool);
    const name = `store-${++stores}`;
    return [openPostgresKv(pool, name), openPostgresKv(other, name)];
  },
};

const keyPart = fc.string({ minLength: 0, maxLength: 12, unit: "grapheme" });
const key = fc.array(keyPart, { minLength: 1, maxLength: 4 }) as unknown as fc.Arbitrary<KvKey>;
const value = fc.jsonValue({ maxDepth: 3 }).filter((json) => json !== null);

async function listed(store: KvStore, prefix?: KvKey) {
  const found: { key: KvKey; value: unknown }[] = [];
  for await (const entry of store.list(prefix)) found.push({ key: entry.key, value: entry.value });
  return found;
}

describe.each(Object.keys(kinds))("the %s store of federation state", (kind) => {
  it("reads back what was set, under any key, until it is deleted", async () => {
    const [store, other] = await kinds[kind]!();
    await fc.assert(
      fc.asyncProperty(key, value, async (k, v) => {
        await store.set(k, v);
        expect(await other.get(k)).toEqual(JSON.parse(JSON.stringify(v)));
        await store.delete(k);
        expect(await other.get(k)).toBeUndefined();
      }),
      { numRuns: 40 },
    );
  });

  it("lists exactly the keys under a prefix, whatever their parts hold", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(key, { maxLength: 8, selector: (k) => JSON.stringify(k) }),
        key,
        async (keys, prefix) => {
          const [store] = await kinds[kind]!();
          for (const [i, k] of keys.entries()) await store.set(k, i);
          const under = (k: KvKey) => k.length >= prefix.length && prefix.every((part, i) => k[i] === part);
          const expected = keys
            .filter(under)
            .map((k) => JSON.stringify(k))
            .sort();
          const found = (await listed(store, prefix)).map((entry) => JSON.stringify(entry.key)).sort();
          expect(found).toEqual(expected);
          expect((await listed(store)).length).toBe(keys.length);
        },
      ),
      { numRuns: kind === "postgres" ? 15 : 40 },
    );
  });

  it("forgets an entry once its TTL has passed, and keeps one without", async () => {
    const [store] = await kinds[kind]!();
    await store.set(["short"], 1, { ttl: Temporal.Duration.from({ milliseconds: 300 }) });
    await store.set(["kept"], 2);
    expect(await store.get(["short"])).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store.get(["short"])).toBeUndefined();
    expect((await listed(store)).map((entry) => entry.key)).toEqual([["kept"]]);
  });

  it("swaps only from the value it expects, and one of two racing swaps wins", async () => {
    const [store, other] = await kinds[kind]!();
    expect(await store.cas!(["n"], undefined, { v: 1 })).toBe(true);
    expect(await store.cas!(["n"], undefined, { v: 2 }), "it is no longer absent").toBe(false);
    expect(await store.cas!(["n"], { v: 1 }, { v: 3 })).toBe(true);
    expect(await other.get(["n"])).toEqual({ v: 3 });
    const raced = await Promise.all([store.cas!(["race"], undefined, "a"), other.cas!(["race"], undefined, "b")]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await store.get(["race"])).toBe(raced[0] ? "a" : "b");
  });
});
