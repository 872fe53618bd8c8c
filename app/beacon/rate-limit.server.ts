import { createHmac, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

type Rate = { burst: number; perSecond: number };
type Bucket = { tokens: number; at: number };

/**
 * One token bucket per key (at most `keys`, the least recently used going first): `has` says whether a
 * request may come now, `take` spends a token, so a caller may look before and charge after. Only `take`
 * keeps a key: asking with made-up keys evicts no one's bucket.
 */
export function tokenBuckets({
  rate,
  keys = 10_000,
  now = () => performance.now(),
}: {
  rate: Rate;
  keys?: number;
  now?: () => number;
}) {
  const buckets = new LRUCache<string, Bucket>({ max: keys });
  const refilled = (key: string) => {
    const time = now();
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { tokens: rate.burst, at: time }));
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((time - bucket.at) / 1000) * rate.perSecond);
    bucket.at = time;
    return bucket;
  };
  return {
    /** Whether a request may come now; a key not seen yet (or none) may, and is not kept for asking. */
    has: (key: string | undefined) => key === undefined || !buckets.has(key) || refilled(key).tokens >= 1,
    /** Spends a token when there is one; says whether there was. */
    take(key: string | undefined): boolean {
      if (key === undefined) return true;
      const bucket = refilled(key);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}

/**
 * Token buckets for beacons: one per reader, and one for the process, so that many addresses at once
 * cost bounded work too. A reader is known by an HMAC of their address under a key made at start and
 * never written anywhere: the address is not kept, and its hash means nothing to another process or
 * after a restart. At most `readers` buckets are kept, the least recently used going first.
 */
export function beaconLimits({
  perReader = { burst: 20, perSecond: 1 / 3 },
  overall = { burst: 400, perSecond: 200 },
  readers = 10_000,
  now = () => performance.now(),
}: { perReader?: Rate; overall?: Rate; readers?: number; now?: () => number } = {}) {
  const key = randomBytes(32);
  const each = tokenBuckets({ rate: perReader, keys: readers, now });
  const all = tokenBuckets({ rate: overall, keys: 1, now });
  /** Whether a beacon from this address may be counted now; it takes a token if so. */
  return (address: string): boolean => {
    const reader = createHmac("sha256", key).update(address).digest("base64url");
    return each.take(reader) && all.take("all");
  };
}
