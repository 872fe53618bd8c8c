import type { MessageQueue, MessageQueueDepth } from "@fedify/fedify";
import type pg from "pg";
import { run } from "~/database/postgres.server";
import { CLAIM_MS, dueAt, work } from "./queue-rules";

/**
 * A site's deliveries waiting in the catalogue database, under the catalogue's name, shared by every origin
 * that uses it. A message is taken in one statement that skips rows another origin is taking (FOR UPDATE
 * SKIP LOCKED), so each is handed to exactly one worker; one with an ordering key waits while another of
 * the same key is held.
 */
export function openPostgresQueue(
  pool: pg.Pool,
  store: string,
  { onError }: { onError?: (error: unknown) => void } = {},
): MessageQueue & { getDepth(): Promise<MessageQueueDepth> } {
  const put = (message: unknown, options?: Parameters<MessageQueue["enqueue"]>[1]) =>
    run(
      pool,
      "INSERT INTO fediverse_queue (store, message, ordering_key, due_at) VALUES ($1, $2, $3, to_timestamp($4 / 1000.0))",
      [store, JSON.stringify(message), options?.orderingKey ?? null, dueAt(options, Date.now())],
    );
  const take = async () => {
    const rows = await run<{ id: string; message: string }>(
      pool,
      `UPDATE fediverse_queue SET taken_until = now() + $2 * interval '1 millisecond'
       WHERE id = (
         SELECT id FROM fediverse_queue AS q
         WHERE store = $1 AND due_at <= now() AND (taken_until IS NULL OR taken_until <= now())
           AND (ordering_key IS NULL OR NOT EXISTS (
             SELECT 1 FROM fediverse_queue AS o
             WHERE o.store = q.store AND o.ordering_key = q.ordering_key AND o.taken_until > now() AND o.id <> q.id))
         ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, message`,
      [store, CLAIM_MS],
    );
    return rows[0] ? { id: rows[0].id, message: JSON.parse(rows[0].message) as unknown } : undefined;
  };
  return {
    enqueue: async (message, options) => void (await put(message, options)),
    enqueueMany: async (messages, options) => {
      for (const message of messages) await put(message, options);
    },
    listen: (handler, options) =>
      work(
        take,
        async (id) => void (await run(pool, "DELETE FROM fediverse_queue WHERE id = $1", [id])),
        handler,
        options?.signal,
        onError,
      ),
    async getDepth() {
      const rows = await run<{ queued: number; ready: number }>(
        pool,
        `SELECT count(*)::int AS queued, count(*) FILTER (WHERE due_at <= now())::int AS ready
         FROM fediverse_queue WHERE store = $1 AND (taken_until IS NULL OR taken_until <= now())`,
        [store],
      );
      const { queued, ready } = rows[0] ?? { queued: 0, ready: 0 };
      return { queued, ready, delayed: queued - ready };
    },
  };
}
