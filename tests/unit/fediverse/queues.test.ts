// The two durable queues of a site's deliveries keep Fedify's contract alike: a message waits out its delay,
// each goes to exactly one of the workers listening (two origins, or two processes on one file), messages of
// one ordering key are handled one at a time, and what was not handled survives the queue being reopened.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { MessageQueue } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "~/database/postgres-schema.server";
import { openPostgresQueue } from "~/fediverse/pg-queue.server";
import { openSqliteQueue } from "~/fediverse/sqlite-queue.server";
import { postgresForTests } from "../../support/postgres-in-tests";

const dir = mkdtempSync(path.join(tmpdir(), "fediverse-queue-"));
const postgres = postgresForTests();
let stores = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Queue = MessageQueue & { getDepth(): Promise<{ queued: number; ready?: number; delayed?: number }> };
/** Each kind gives a way to open the same queue again, as another process or origin would. */
const kinds: Record<string, () => Promise<() => Queue>> = {
  sqlite: async () => {
    const file = path.join(dir, `queue-${++stores}.sqlite`);
    return () => openSqliteQueue(file);
  },
  postgres: async () => {
    const name = `queue-${++stores}`;
    const first = postgres.pool();
    await migrate(first);
    return () => {
      return openPostgresQueue(postgres.pool(), name);
    };
  },
};

const until = async (check: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(Object.keys(kinds))("the %s queue of deliveries", (kind) => {
  it("hands each message to exactly one of two workers, and keeps a delayed one until it is due", async () => {
    const open = await kinds[kind]!();
    const [a, b] = [open(), open()];
    const handled: { by: string; n: number; at: number }[] = [];
    const stop = new AbortController();
    void a.listen((message) => void handled.push({ by: "a", n: (message as { n: number }).n, at: Date.now() }), {
      signal: stop.signal,
    });
    void b.listen((message) => void handled.push({ by: "b", n: (message as { n: number }).n, at: Date.now() }), {
      signal: stop.signal,
    });
    const start = Date.now();
    await a.enqueue({ n: 0 }, { delay: Temporal.Duration.from({ milliseconds: 1500 }) });
    for (let n = 1; n <= 20; n++) await (n % 2 ? a : b).enqueue({ n });
    await until(() => handled.length === 21);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    stop.abort();
    expect(handled.map((entry) => entry.n).sort((x, y) => x - y)).toEqual([...Array(21).keys()]);
    expect(handled.find((entry) => entry.n === 0)!.at - start).toBeGreaterThanOrEqual(1400);
    expect((await a.getDepth()).queued).toBe(0);
  });

  it("handles the messages of one ordering key one at a time, in order", async () => {
    const open = await kinds[kind]!();
    const [a, b] = [open(), open()];
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const handler = async (message: unknown) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push((message as { n: number }).n);
      running -= 1;
    };
    for (let n = 1; n <= 6; n++) await a.enqueue({ n }, { orderingKey: "one-article" });
    const stop = new AbortController();
    void a.listen(handler, { signal: stop.signal });
    void b.listen(handler, { signal: stop.signal });
    await until(() => order.length === 6);
    stop.abort();
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("keeps what was not handled when it is closed and opened again", async () => {
    const open = await kinds[kind]!();
    const first = open();
    await first.enqueue({ n: 1 });
    await first.enqueue({ n: 2 }, { delay: Temporal.Duration.from({ milliseconds: 200 }) });
    expect(await first.getDepth()).toMatchObject({ queued: 2 });
    (first as { close?: () => void }).close?.();
    const again = open();
    const handled: number[] = [];
    const stop = new AbortController();
    void again.listen((message) => void handled.push((message as { n: number }).n), { signal: stop.signal });
    await until(() => handled.length === 2);
    stop.abort();
    expect(handled).toEqual([1, 2]);
  });
});
