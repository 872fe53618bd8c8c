import type { MessageQueueEnqueueOptions } from "@fedify/fedify";

/**
 * What the two durable queues of a site's deliveries (SQLite, PostgreSQL) share. Fedify puts each activity to
 * send in the queue, one message per inbox, and puts a failed one back with its own backoff until it gives
 * up; the queue keeps them across restarts and hands each to one worker. A message taken is held for
 * CLAIM_MS: a process that dies holding one leaves it to be taken again after that.
 */

/** How long a taken message is held by its worker before another may take it. */
export const CLAIM_MS = 120_000;
/** How often an idle worker looks for a message that is due. */
export const POLL_MS = 1_000;

/** When a message enqueued now with these options is due, in ms since the epoch. */
export function dueAt(options: MessageQueueEnqueueOptions | undefined, now: number): number {
  const ms = options?.delay?.total({ unit: "millisecond" }) ?? 0;
  return now + (Number.isFinite(ms) && ms > 0 ? ms : 0);
}

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * Takes due messages one at a time and hands each to `handler` until `signal` aborts: `take` claims one
 * (none when nothing is due), `done` removes it once handled. A handler that throws leaves the message to
 * be taken again when its claim runs out; Fedify's own retries go through `enqueue`, not through this.
 */
export async function work(
  take: () => Promise<{ id: number | string; message: unknown } | undefined>,
  done: (id: number | string) => Promise<void>,
  handler: (message: unknown) => Promise<void> | void,
  signal?: AbortSignal,
  onError: (error: unknown) => void = () => {},
): Promise<void> {
  while (!signal?.aborted) {
    let taken;
    try {
      taken = await take();
    } catch (error) {
      onError(error);
      await pause(POLL_MS * 5, signal);
      continue;
    }
    if (!taken) {
      await pause(POLL_MS, signal);
      continue;
    }
    try {
      await handler(taken.message);
      await done(taken.id);
    } catch (error) {
      onError(error);
    }
  }
}
