import { createHmac, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

type Rate = { burst: number; perSecond: number };
type Bucket = { tokens: number; at: number };

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
  const buckets = new LRUCache<string, Bucket>({ max: readers });
  const all: Bucket = { tokens: overall.burst, at: now() };
  const take = (bucket: Bucket, rate: Rate, time: number) => {
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((time - bucket.at) / 1000) * rate.perSecond);
    bucket.at = time;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };
  /** Whether a beacon from this address may be counted now; it takes a token if so. */
  return (address: string): boolean => {
    const reader = createHmac("sha256", key).update(address).digest("base64url");
    const time = now();
    let bucket = buckets.get(reader);
    if (!bucket) buckets.set(reader, (bucket = { tokens: perReader.burst, at: time }));
    return take(bucket, perReader, time) && take(all, overall, time);
  };
}
