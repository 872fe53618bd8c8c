import { LRUCache } from "lru-cache";
import { metrics } from "~/metrics/record.server";

/**
 * `failed`: a stale copy kept in service because the source failed to give a new one. `error`: no value,
 * but a failure kept like one (`keepFailure`), thrown to each reader until the entry is refreshed.
 */
type Entry<T> = { value: T; fetchedAt: number; size: number; failed?: boolean; error?: unknown };

type Options = {
  /** A value is fresh this long; then it is served stale while one request refreshes it. */
  freshMs: number;
  /** How long past fresh a value is still served at once while it refreshes (stale-while-revalidate). */
  staleWhileRevalidateMs: number;
  /** How old a value may be and still stand in when the source fails (stale-if-error). */
  staleIfErrorMs: number;
  /** Rough memory budget in bytes (by the size each load reports). */
  maxSize?: number;
  /**
   * Failures kept as if they were values, for a fresh period: those that asking again would only repeat
   * (a reply whose content does not fit), so that they cost one call a period, not one a reader.
   */
  keepFailure?: (error: unknown) => boolean;
  now?: () => number;
};

export type Load<T> = () => Promise<{ value: T; size?: number }>;

/** What an entry costs besides the size its load reports (key, bookkeeping, the object): small entries add up. */
const ENTRY_OVERHEAD = 512;

/**
 * A cache in front of a slow or failing source: one load per key at a time however many readers ask,
 * stale-while-revalidate after the fresh period, and stale-if-error up to a limit. Built on lru-cache's
 * fetchMethod, which already gives the single flight and the background refresh.
 */
export function createSwrCache<T>({
  freshMs,
  staleWhileRevalidateMs,
  staleIfErrorMs,
  maxSize = 64 * 1024 * 1024,
  keepFailure,
  now = Date.now,
}: Options) {
  /** Keys whose load is under way, so that a reader who waits for it is counted as having joined it. */
  const loading = new Set<string>();
  const lru = new LRUCache<string, Entry<T>, Load<T>>({
    maxSize,
    sizeCalculation: (entry) => entry.size + ENTRY_OVERHEAD,
    ttl: Math.max(1, freshMs),
    perf: { now },
    // Read the clock on every check (it is cheap) so an injected clock is always honoured.
    ttlResolution: 0,
    // Expired entries stay until evicted by size: they are the stale copies served on failure.
    noDeleteOnStaleGet: true,
    noDeleteOnFetchRejection: true,
    allowStaleOnFetchAbort: true,
    fetchMethod: async (key, stale, { context: load }) => {
      loading.add(key);
      try {
        const { value, size } = await load();
        return { value, fetchedAt: now(), size: size ?? 1024 };
      } catch (error) {
        if (stale && stale.error === undefined && now() - stale.fetchedAt <= staleIfErrorMs) {
          console.warn(`Serving a stale copy: ${(error as Error).message}`);
          // Kept as fresh for another period, so a failing source is asked again only that often.
          return { ...stale, failed: true };
        }
        if (keepFailure?.(error)) return { value: undefined as T, error, fetchedAt: now(), size: 512 };
        throw error;
      } finally {
        loading.delete(key);
      }
    },
  });

  return {
    /** The value for `key`; `site` names whose read it is in the metrics. */
    async get(key: string, load: Load<T>, site = "default"): Promise<T> {
      const cached = lru.peek(key, { allowStale: true });
      const age = cached ? now() - cached.fetchedAt : Infinity;
      // Within the stale-while-revalidate window a reader gets the old copy at once; after it, they wait.
      const serveStale = age <= freshMs + staleWhileRevalidateMs;
      if (loading.has(key) && !serveStale) metrics.joinedCall(site);
      const entry = await lru.fetch(key, { context: load, allowStale: serveStale });
      if (!entry) throw new Error(`cache load for ${key} gave nothing`);
      if (entry.error !== undefined) throw entry.error;
      if (now() - entry.fetchedAt > freshMs) metrics.staleReply(site, entry.failed ? "backend_failed" : "refreshing");
      return entry.value;
    },
    /** Drops every entry whose key starts with one of the prefixes. */
    forget(prefixes: string[]) {
      for (const key of [...lru.keys()]) if (prefixes.some((prefix) => key.startsWith(prefix))) lru.delete(key);
    },
  };
}

export type SwrCache<T> = ReturnType<typeof createSwrCache<T>>;
