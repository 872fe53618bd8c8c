import { randomUUID } from "node:crypto";
import type { BlogSource } from "~/blog/source.server";
import type { BlogArticle, BlogEntry } from "~/blog/types";
import { splitKeywords } from "~/blog/keywords";
import type { Catalogue, CatalogueArticle, CatalogueEntry } from "./catalogue";
import { createPacer } from "./pacer";

/**
 * Keeps a site's catalogue in step with its source (docs/decisions/031), in the background:
 * - every fresh period, list page 1 onward until a page brings nothing new or changed;
 * - bodies of new and changed articles, one call at a time at `callsPerSecond`, never a burst;
 * - every `sweepMs`, the whole list, to find articles that are gone;
 * - the stored bodies again, one at a time round the catalogue, each once a `sweepMs` and together at most
 *   REFRESH_SHARE of the pace: a body changed at the backend while its list entry was not is found within
 *   refreshCycleMs (docs/decisions/053);
 * - only while it holds the catalogue's lease, so one process of a machine syncs a site at a time.
 * A failing source leaves the catalogue as it was: the sync waits a fresh period and tries again.
 */

export type SyncOptions = {
  catalogue: Catalogue;
  source: BlogSource;
  domain: string;
  /** Backend calls a second, at most (list and details alike)... */
  callsPerSecond: number;
  /** ...or the pacer of the backend, shared with the other sites it serves. */
  pace?: () => Promise<void>;
  freshMs: number;
  sweepMs: number;
  /** How the log names the site. */
  label: string;
  /** Told after each step, for the metrics. */
  onProgress?: (progress: { syncedAt?: number; failed: boolean }) => void;
};

/** Bodies failing one after another that mean the backend is down rather than one article being bad. */
const OUTAGE_FAILURES = 3;

/** How long the lease lasts without being renewed: a process that dies gives the sync up after this. */
const LEASE_MS = 60_000;

/** The share of the pace a site's re-reads of stored bodies take at most. */
export const REFRESH_SHARE = 0.1;

/** The time between two re-reads of stored bodies: each body once a sweep period, never more than REFRESH_SHARE of the pace. */
export function refreshGapMs(bodies: number, sweepMs: number, callsPerSecond: number): number {
  return Math.max(sweepMs / Math.max(1, bodies), 1000 / (callsPerSecond * REFRESH_SHARE));
}

/** The longest a changed body waits to be read again: one round of the catalogue, max(sweep, bodies ÷ (share × pace)). */
export const refreshCycleMs = (bodies: number, sweepMs: number, callsPerSecond: number) =>
  Math.max(1, bodies) * refreshGapMs(bodies, sweepMs, callsPerSecond);

export function catalogueEntry(entry: BlogEntry): CatalogueEntry {
  return {
    slug: entry.slug,
    title: entry.metaTitle,
    description: entry.metaDescription,
    image: entry.pinterestImageLink ?? undefined,
    date: entry.date ?? undefined,
    keywords: entry.keywords,
  };
}

export function catalogueArticle(slug: string, article: BlogArticle): CatalogueArticle {
  return {
    slug,
    title: article.metaTitle,
    description: article.metaDescription,
    image: article.pinterestImageLink ?? undefined,
    date: article.date,
    keywords: [...splitKeywords(article.shortTailKeywords), ...splitKeywords(article.longTailKeywords)],
    body: article.blog,
  };
}

export function startSync(options: SyncOptions) {
  const { catalogue, source, domain, freshMs, sweepMs } = options;
  const holder = randomUUID();
  const pace = options.pace ?? createPacer(options.callsPerSecond);
  /** Bodies fetched per round: about ten seconds of calls, so the lease and the head check stay timely. */
  const batch = Math.max(1, Math.min(200, Math.round(options.callsPerSecond * 10) || 200));
  let stopped = false;
  let wake: (() => void) | undefined;
  let failing = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref?.();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const listPage = async (page: number) => {
    await pace();
    if (stopped) throw new Error("stopped");
    return source.listPage(domain, page);
  };

  /** Pages from 1 until one brings nothing new; the whole list when `sweep`. Answers whether it read every page. */
  async function readList(sweep: boolean): Promise<boolean> {
    const seen = new Set<string>();
    for (let page = 1; !stopped; page++) {
      const { blogs, total } = await listPage(page);
      const changed = await catalogue.putEntries(blogs.map(catalogueEntry));
      for (const entry of blogs) seen.add(entry.slug);
      const last = blogs.length === 0 || page * 10 >= total;
      if (!sweep && changed.length < blogs.length && !last) return false;
      if (last) {
        // The whole list was read: what the catalogue has beyond it is gone from the source.
        const gone = (await catalogue.slugs()).filter((slug) => !seen.has(slug));
        if (gone.length > 0) await catalogue.remove(gone);
        return true;
      }
    }
    return false;
  }

  /**
   * Reads the bodies of `slugs`. One article that fails (a reply that does not fit, an error for it alone)
   * is left for the next sweep and the others go on; several failing in a row is an outage: the sync pauses.
   */
  async function readBodies(slugs: readonly string[]) {
    /** Failures since the last success: deferred once another article succeeds, an outage if they go on. */
    let failed: { slug: string; error: unknown }[] = [];
    const defer = async () => {
      for (const { slug, error } of failed) {
        console.warn(
          `Catalogue of ${options.label}: body of ${JSON.stringify(slug)} left for the next sweep, ${(error as Error).message}`,
        );
        await catalogue.deferBody(slug);
      }
      failed = [];
    };
    for (const slug of slugs) {
      if (stopped) break;
      await pace();
      // Stopped while waiting its turn (a site removed by a reload): no more calls.
      if (stopped) break;
      try {
        const article = await source.article(slug);
        if (article) await catalogue.putArticle(catalogueArticle(slug, article));
        else await catalogue.remove([slug]);
        await defer();
      } catch (error) {
        failed.push({ slug, error });
        if (failed.length >= OUTAGE_FAILURES) throw error;
      }
    }
    await defer();
  }

  /** Bodies the catalogue lacks; answers how many it asked for. */
  async function fetchBodies(): Promise<number> {
    const slugs = await catalogue.missingBodies(batch);
    await readBodies(slugs);
    return slugs.length;
  }

  /** The time between re-reads, worked out again at each head check (the catalogue grows). */
  let refreshGap: number | undefined;

  /**
   * Reads again the stored bodies that are due, in the order of slugs and round again from the first; the
   * place and the time of the next are the catalogue's state, so an origin that takes the lease over goes on
   * from there. Answers when the next is due.
   */
  async function refreshBodies(): Promise<number> {
    const now = Date.now();
    refreshGap ??= refreshGapMs((await catalogue.count()).withBody, sweepMs, options.callsPerSecond);
    const stored = await catalogue.getState("refreshAt");
    // Never more than one behind: a sync that was stopped or busy goes on at its share, not in a burst. Nor
    // more than one ahead: an origin whose clock ran ahead does not hold the others back.
    const dueAt =
      stored === undefined
        ? now + refreshGap
        : Math.min(Math.max(Number(stored) || 0, now - refreshGap), now + refreshGap);
    const due = now >= dueAt ? Math.min(batch, Math.floor((now - dueAt) / refreshGap) + 1) : 0;
    if (due > 0) {
      const slugs = await catalogue.bodiesAfter((await catalogue.getState("refreshAfter")) ?? "", due);
      if (slugs.length < due)
        slugs.push(...(await catalogue.bodiesAfter("", due - slugs.length)).filter((slug) => !slugs.includes(slug)));
      await readBodies(slugs);
      if (stopped) return now;
      await catalogue.setState("refreshAfter", slugs.at(-1) ?? "");
    }
    const next = dueAt + due * refreshGap;
    if (String(next) !== stored) await catalogue.setState("refreshAt", String(next));
    return next;
  }

  async function step(): Promise<number> {
    if (!(await catalogue.lease(holder, LEASE_MS))) return freshMs;
    const now = Date.now();
    const headAt = Number((await catalogue.getState("headAt")) ?? 0);
    const sweptAt = Number((await catalogue.getState("sweptAt")) ?? 0);
    if (now - headAt >= freshMs) {
      const sweep = now - sweptAt >= sweepMs;
      const complete = await readList(sweep);
      await catalogue.setState("headAt", String(now));
      if (complete) {
        await catalogue.setState("sweptAt", String(now));
        if (sweep) await catalogue.retryDeferred();
      }
      refreshGap = undefined;
      options.onProgress?.({ syncedAt: now, failed: false });
    }
    const fetched = await fetchBodies();
    if (fetched > 0) return 0;
    const refreshAt = await refreshBodies();
    const nextHead = Number((await catalogue.getState("headAt")) ?? 0) + freshMs;
    return Math.max(0, Math.min(nextHead, refreshAt) - Date.now());
  }

  const done = (async () => {
    while (!stopped) {
      let waitMs: number;
      try {
        waitMs = await step();
        if (failing) console.warn(`Catalogue of ${options.label}: the source answers again`);
        failing = false;
      } catch (error) {
        if (stopped) break;
        if (!failing) console.warn(`Catalogue of ${options.label}: sync paused, ${(error as Error).message}`);
        failing = true;
        options.onProgress?.({ failed: true });
        waitMs = freshMs;
      }
      if (waitMs > 0 && !stopped) await sleep(waitMs);
    }
    await catalogue.release(holder);
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await done;
    },
  };
}
