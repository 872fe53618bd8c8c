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
   * Bodies the catalogue lacks. One article that fails (a reply that does not fit, an error for it alone)
   * is left for the next sweep and the others go on; several failing in a row is an outage: the sync pauses.
   */
  async function fetchBodies(): Promise<number> {
    const slugs = await catalogue.missingBodies(batch);
    /** Failures since the last success: deferred once another article succeeds, an outage if they go on. */
    let failed: { slug: string; error: unknown }[] = [];
    const defer = async () => {
      for (const { slug, error } of failed) {
        console.warn(`Catalogue of ${options.label}: body of ${JSON.stringify(slug)} left for the next sweep, ${(error as Error).message}`);
        await catalogue.deferBody(slug);
      }
      failed = [];
    };
    for (const slug of slugs) {
      if (stopped) break;
      await pace();
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
    return slugs.length;
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
      options.onProgress?.({ syncedAt: now, failed: false });
    }
    const fetched = await fetchBodies();
    if (fetched > 0) return 0;
    const nextHead = Number((await catalogue.getState("headAt")) ?? 0) + freshMs;
    return Math.max(0, nextHead - Date.now());
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
