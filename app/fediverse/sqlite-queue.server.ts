import type { MessageQueue, MessageQueueDepth } from "@fedify/fedify";
import { CLAIM_MS, dueAt, work } from "./queue-rules";
import { openStoreConnection } from "~/database/sqlite-connection.server";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fediverse_queue (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message TEXT NOT NULL,
  ordering_key TEXT,
  due_at INTEGER NOT NULL,
  taken_until INTEGER
);
CREATE INDEX IF NOT EXISTS fediverse_queue_due ON fediverse_queue (due_at);
`;

/**
 * A site's deliveries waiting in its catalogue file, through a connection of their own. A message is taken
 * in one transaction (BEGIN IMMEDIATE), so two processes on one machine never take the same one, and one
 * with an ordering key waits while another of the same key is taken.
 */
export function openSqliteQueue(
  file: string,
  { now = Date.now, onError }: { now?: () => number; onError?: (error: unknown) => void } = {},
): MessageQueue & { getDepth(): Promise<MessageQueueDepth>; close(): void } {
  const db = openStoreConnection(file);
  db.exec(SCHEMA);
  const statements = {
    add: db.prepare("INSERT INTO fediverse_queue (message, ordering_key, due_at) VALUES (?, ?, ?)"),
    // Due, not held by a worker, and with no message of its ordering key held.
    next: db.prepare<[number, number, number], { id: number; message: string }>(
      `SELECT id, message FROM fediverse_queue AS q
       WHERE due_at <= ? AND (taken_until IS NULL OR taken_until <= ?)
         AND (ordering_key IS NULL OR NOT EXISTS (
           SELECT 1 FROM fediverse_queue AS o WHERE o.ordering_key = q.ordering_key AND o.taken_until > ? AND o.id <> q.id))
       ORDER BY due_at, id LIMIT 1`,
    ),
    claim: db.prepare("UPDATE fediverse_queue SET taken_until = ? WHERE id = ?"),
    done: db.prepare("DELETE FROM fediverse_queue WHERE id = ?"),
    depth: db.prepare<[number, number], { queued: number; ready: number }>(
      "SELECT count(*) AS queued, coalesce(sum(due_at <= ?), 0) AS ready FROM fediverse_queue WHERE taken_until IS NULL OR taken_until <= ?",
    ),
  };
  const take = db.transaction(() => {
    const at = now();
    const row = statements.next.get(at, at, at);
    if (!row) return undefined;
    statements.claim.run(at + CLAIM_MS, row.id);
    return { id: row.id, message: JSON.parse(row.message) as unknown };
  });
  const put = (message: unknown, options?: Parameters<MessageQueue["enqueue"]>[1]) =>
    statements.add.run(JSON.stringify(message), options?.orderingKey ?? null, dueAt(options, now()));

  return {
    enqueue: (message, options) => Promise.resolve(void put(message, options)),
    enqueueMany: (messages, options) =>
      Promise.resolve(db.transaction(() => messages.forEach((message) => put(message, options)))()),
    listen: (handler, options) =>
      work(
        () => Promise.resolve(take.immediate()),
        (id) => Promise.resolve(void statements.done.run(id)),
        handler,
        options?.signal,
        onError,
      ),
    getDepth: () => {
      const { queued, ready } = statements.depth.get(now(), now()) ?? { queued: 0, ready: 0 };
      return Promise.resolve({ queued, ready, delayed: queued - ready });
    },
    close: () => db.close(),
  };
}
