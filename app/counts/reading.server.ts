import { createSwrCache } from "~/blog/cache.server";
import { noRate, type ReadRate } from "./read-rate";
import type { CountsStore } from "./store";
import { dayOf } from "./tally";

/** Days of views the "Most read" list counts, today included. */
export const MOST_READ_DAYS = 7;
/** Articles the list shows at most; an article needs MOST_READ_MIN_VIEWS views in the window to be on it. */
export const MOST_READ_COUNT = 5;
export const MOST_READ_MIN_VIEWS = 3;
/** Days of views and ends counted for how often an article is read to the end. */
export const COMPLETION_DAYS = 30;
/**
 * Views an article's own rate counts as much as the site's, when smoothed: an article read by a handful is
 * mostly the site's rate, one read by hundreds mostly its own (a Bayesian average).
 */
export const COMPLETION_PRIOR_VIEWS = 20;
/** The figures are read again after this long; pages are cached as long or longer, and the lists change slowly. */
const FRESH_MS = 10 * 60_000;

export type ReadingFigures = {
  /** The articles most viewed over MOST_READ_DAYS, most first (at most MOST_READ_COUNT × 2: some may be gone from the catalogue). */
  mostRead: { slug: string; views: number }[];
  /** How often each article is read to the end, smoothed; the same for all on a site without counts. */
  readRate: ReadRate;
};

export const NONE: ReadingFigures = { mostRead: [], readRate: noRate };
const slugOf = (page: string) => (page.startsWith("/blog/") ? page.slice("/blog/".length) : undefined);
const daysBefore = (today: string, days: number) =>
  dayOf(new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000));

/** Pure: the figures from the sums of views over MOST_READ_DAYS, and of views and ends over COMPLETION_DAYS. */
export function figuresOf(
  recent: { kind: string; page: string; n: number }[],
  longer: { kind: string; page: string; n: number }[],
): ReadingFigures {
  const mostRead = recent
    .flatMap(({ kind, page, n }) => {
      const slug = slugOf(page);
      return kind === "views" && slug && n >= MOST_READ_MIN_VIEWS ? [{ slug, views: n }] : [];
    })
    .sort((a, b) => b.views - a.views || a.slug.localeCompare(b.slug))
    .slice(0, MOST_READ_COUNT * 2);

  const views = new Map<string, number>();
  const ends = new Map<string, number>();
  for (const { kind, page, n } of longer) {
    const slug = slugOf(page);
    if (slug && (kind === "views" || kind === "read_end")) (kind === "views" ? views : ends).set(slug, n);
  }
  const allViews = [...views.values()].reduce((sum, n) => sum + n, 0);
  const allEnds = [...ends.values()].reduce((sum, n) => sum + n, 0);
  if (allViews === 0 || allEnds === 0) return { mostRead, readRate: noRate };
  // Ends can outnumber views (a reader without JavaScript is a view, never an end; a page read twice): at most 1.
  const siteRate = Math.min(allEnds / allViews, 1);
  const readRate: ReadRate = (slug) =>
    Math.min(
      ((ends.get(slug) ?? 0) + COMPLETION_PRIOR_VIEWS * siteRate) / ((views.get(slug) ?? 0) + COMPLETION_PRIOR_VIEWS),
      1,
    );
  return { mostRead, readRate };
}

/**
 * A site's reading figures from its counts (docs/decisions/052), read from the store at most once per
 * FRESH_MS, an older copy served meanwhile; a store that is away gives none, never an error: the pages
 * that use them show as on a new site.
 */
export function readingFigures(store: CountsStore, { now = () => new Date() } = {}) {
  const cache = createSwrCache<ReadingFigures>({
    freshMs: FRESH_MS,
    staleWhileRevalidateMs: 60 * 60_000,
    staleIfErrorMs: 60 * 60_000,
    now: () => now().getTime(),
  });
  const load = async () => {
    const today = dayOf(now());
    const [recent, longer] = await Promise.all([
      store.sums(["views"], daysBefore(today, MOST_READ_DAYS), today),
      store.sums(["views", "read_end"], daysBefore(today, COMPLETION_DAYS), today),
    ]);
    return { value: figuresOf(recent, longer) };
  };
  return (): Promise<ReadingFigures> => cache.get("figures", load).catch(() => NONE);
}

export type ReadingFiguresOf = ReturnType<typeof readingFigures>;
