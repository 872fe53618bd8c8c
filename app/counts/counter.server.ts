import { createHmac } from "node:crypto";
import type { CountsStore } from "./store";
import { dayOf, type Mark, type SourceKind, type Tally } from "./tally";

/** How often a process writes what it counted; a stop writes the rest. */
const FLUSH_MS = 5_000;
/** Marks waiting for the next write, at most: beyond, a view still counts, its visitor does not. */
const MAX_PENDING_MARKS = 10_000;

export type View = {
  /** A known route, a catalogue's article or OTHER (app/counts/pages.server.ts), never "", or the promise of one. */
  page: string | Promise<string>;
  /** The reader's address and user agent: hashed under the day's salt, then forgotten. */
  address: string;
  userAgent: string;
  /** Where they came from, counted if this is their first view of the day (none for a view without JavaScript). */
  sources?: { kind: SourceKind; key: string }[];
};

/**
 * Counts a site's views and visitors into its store (docs/decisions/050). A visitor is the keyed hash of
 * the store's name, the reader's address and user agent under the day's salt; only two bit positions of
 * it are kept, and only until the next write: the bit of the site's bitmap and of the page's, which the
 * store deletes with the salt. Counts are kept in memory for FLUSH_MS, then added to the store in one
 * transaction, so that a page view costs the store nothing of its own.
 */
export function createCounter(store: CountsStore, name: string, { flushMs = FLUSH_MS, now = () => new Date() } = {}) {
  let tallies = new Map<string, Tally>();
  let marks: Mark[] = [];
  const salts = new Map<string, Promise<Buffer>>();
  let writing: Promise<void> = Promise.resolve();
  /** Views still waiting for their page or the day's salt: a stop waits for them. */
  const arriving = new Set<Promise<void>>();

  const saltOf = (day: string) => {
    let salt = salts.get(day);
    if (!salt) {
      salts.clear();
      salts.set(day, (salt = store.salt(day)));
      // A store that was away is asked again at the next view.
      salt.catch(() => salts.delete(day));
    }
    return salt;
  };
  const tally = (day: string, page: string) => {
    const id = `${day}\0${page}`;
    const known = tallies.get(id);
    if (known) known.n += 1;
    else tallies.set(id, { day, kind: "views", page, key: "", n: 1 });
  };

  const flush = () => {
    if (tallies.size === 0 && marks.length === 0) return writing;
    const batch = { tallies: [...tallies.values()], marks };
    tallies = new Map();
    marks = [];
    writing = writing
      .then(() => store.write(batch.tallies, batch.marks))
      .catch((error: Error) => console.error(`Counts of ${name} not written: ${error.message}`));
    return writing;
  };
  const timer = setInterval(flush, flushMs);
  timer.unref();

  const count = async ({ page: pageOrPromise, address, userAgent, sources }: View) => {
    const day = dayOf(now());
    const [page, salt] = await Promise.all([pageOrPromise, saltOf(day)]);
    const hash = createHmac("sha256", salt).update(`${name}\0${address}\0${userAgent}`).digest();
    tally(day, "");
    tally(day, page);
    if (marks.length >= MAX_PENDING_MARKS) return;
    marks.push({ day, page: "", bit: hash.readUInt32BE(0), sources }, { day, page, bit: hash.readUInt32BE(4) });
  };

  return {
    /** Counts a view; settles when it is in the next write (a store that cannot give the day's salt rejects). */
    view(view: View): Promise<void> {
      const counting = count(view);
      const tracked = counting.catch(() => undefined).finally(() => arriving.delete(tracked));
      arriving.add(tracked);
      return counting;
    },
    /** Writes what was counted so far (tests, and a stop). */
    flush,
    async close() {
      clearInterval(timer);
      await Promise.all(arriving);
      await flush();
      await store.close();
    },
  };
}

export type Counter = ReturnType<typeof createCounter>;
