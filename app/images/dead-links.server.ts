import { LRUCache } from "lru-cache";

/** How long a failed source stays dead: old pins rarely come back, but a host may have had a bad minute. */
const DEAD_FOR_MS = 15 * 60 * 1000;

export type DeadLink = { status: number; reason: string };

const dead = new LRUCache<string, DeadLink>({ max: 10_000, ttl: DEAD_FOR_MS });

/** Remembers that `link` could not give an image, and why. */
export function markDead(link: string, failure: DeadLink) {
  dead.set(link, failure);
}

/** Why `link` is known dead, or undefined. Pages rendered meanwhile leave its image out. */
export function deadLink(link: string): DeadLink | undefined {
  return dead.get(link);
}

/** How many links are remembered as dead now. */
export function deadLinkCount() {
  return dead.size;
}

export function forgetDeadLinks() {
  dead.clear();
}
