import { createHmac } from "node:crypto";
import type { CountsStore } from "./store";
import {
  ARTICLE_ACTS,
  dayOf,
  type ActKind,
  type FediverseKind,
  type Kind,
  type Mark,
  type SourceKind,
  type Tally,
} from "./tally";

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
  /** What the reader did on the page, bounded already (app/counts/acts.ts). */
  acts?: Act[];
};

/** `n` more of a kind: for the page when the kind is an article's (and the page one), else for the site, by `key` for a host. */
export type Act = { kind: ActKind; key: string; n: number };

const ofArticle = new Set<string>(ARTICLE_ACTS);
const isArticle = (page: string) => page.startsWith("/blog/");

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
  const tally = (day: string, kind: Kind, page: string, key = "", n = 1) => {
    const id = `${day}\0${kind}\0${page}\0${key}`;
    const known = tallies.get(id);
    if (known) known.n += n;
    else tallies.set(id, { day, kind, page, key, n });
  };
  /** An article's acts count for the article only (none for another page, nor OTHER); the others for the site. */
  const record = (day: string, page: string, acts: Act[]) => {
    for (const { kind, key, n } of acts) {
      if (!ofArticle.has(kind)) tally(day, kind, "", key, n);
      else if (isArticle(page)) tally(day, kind, page, "", n);
    }
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

  const count = async ({ page: pageOrPromise, address, userAgent, sources, acts = [] }: View) => {
    const day = dayOf(now());
    const [page, salt] = await Promise.all([pageOrPromise, saltOf(day)]);
    const hash = createHmac("sha256", salt).update(`${name}\0${address}\0${userAgent}`).digest();
    tally(day, "views", "");
    tally(day, "views", page);
    record(day, page, acts);
    if (marks.length >= MAX_PENDING_MARKS) return;
    marks.push({ day, page: "", bit: hash.readUInt32BE(0), sources }, { day, page, bit: hash.readUInt32BE(4) });
  };

  const tracked = (counting: Promise<void>) => {
    const done = counting.catch(() => undefined).finally(() => arriving.delete(done));
    arriving.add(done);
    return counting;
  };

  return {
    /** Counts a view, and what the reader did on it; settles when it is in the next write (a store that cannot give the day's salt rejects). */
    view(view: View): Promise<void> {
      return tracked(count(view));
    },
    /** Counts what the reader did on a page already counted (one shown again after it was hidden): no view, no visitor. */
    acts(page: string | Promise<string>, acts: Act[]): Promise<void> {
      const day = dayOf(now());
      return tracked(Promise.resolve(page).then((found) => record(day, found, acts)));
    },
    /** Counts `n` of what the server saw for the site (its followers, its deliveries), today or on `day`: no reader's. */
    site(kind: FediverseKind, n = 1, day = dayOf(now())) {
      tally(day, kind, "", "", n);
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
