import { FEDIVERSE_KINDS, SOURCE_KINDS, VISITOR_BITS, visitorEstimate, type SourceKind } from "~/counts/tally";
import type { Period } from "./period";

/**
 * What readers do, counted into the same table by the page's script: read here by these names, so that
 * the report shows them as soon as rows of these kinds exist and "no data yet" before.
 */
export const ACTION_KINDS = {
  /** The article's end reached, per article. */
  readEnd: "read_end",
  /** Seconds the article was visible while the reader was active, per article. */
  engagedSeconds: "engaged_seconds",
  /** The donation pop-up shown, and what the reader did with it (site-wide). */
  donateShown: "donate_shown",
  donateLater: "donate_later",
  donateBackdrop: "donate_backdrop",
  donateNow: "donate_now",
  /** The `#donate` panel opened, by readers without JavaScript (site-wide). */
  donatePanel: "donate_panel",
  /** Clicks on links to other sites and on embeds, site-wide, by host. */
  outbound: "outbound",
  embed: "embed",
} as const;

/**
 * A row of the counts' table, of any kind (app/counts/tally.ts's and ACTION_KINDS alike), or of their sums
 * over the period (day "", as the stores sum them for the report: app/counts/store.ts). A site's visitors
 * (page "") come per day, each day's bits estimated apart; visitors per page are not used.
 */
export type CountRow = { day: string; kind: string; page: string; key: string; n: number };

/** How many of each list the report shows: the rest are summed in the totals. */
export const TOP = { sources: 10, articles: 20, hosts: 10 } as const;

const ARTICLE_PREFIX = "/blog/";

export type Ranked = { key: string; n: number };
export type Article = {
  page: string;
  views: number;
  /** Ends reached per view, at most 1; undefined while no end was counted on the site in the period (no data yet). */
  completion?: number;
  /** Engaged seconds per view; undefined likewise. */
  engagedSeconds?: number;
};
export type Funnel = { shown: number; later: number; backdrop: number; now: number };

/** The social web's figures of a day, or of the period (day ""), as app/counts/tally.ts's FEDIVERSE_KINDS. */
export type FediverseDay = {
  day: string;
  /** Followers at the day's first look; undefined when the site did not count them that day. */
  followers?: number;
  follows: number;
  unfollows: number;
  delivered: number;
  failed: number;
  retried: number;
  givenUp: number;
};

export type Figures = {
  period: Period;
  views: number;
  /** Distinct visitors of each day, summed over the days: one reader on three days counts three times. */
  visitors: number;
  daily: { day: string; views: number; visitors: number }[];
  /** Per kind: visitors with a source of that kind (once per visitor and day), and the most frequent. */
  sources: Record<SourceKind, { visitors: number; top: Ranked[] }>;
  /**
   * Articles with a view in the period and their views; ends reached and engaged seconds per view over
   * all of them (undefined: no data yet); the TOP.articles most viewed.
   */
  articles: { viewed: number; views: number; completion?: number; engagedSeconds?: number; top: Article[] };
  /** The other pages, by template (route id, or "other"). */
  pages: { page: string; views: number }[];
  /** The pop-up's funnel; undefined while it was never shown in the period. */
  funnel?: Funnel;
  /** Readers without JavaScript who opened the `#donate` panel. */
  donatePanel: number;
  outbound: { total: number; top: Ranked[] };
  embeds: { total: number; top: Ranked[] };
  /**
   * Following the site on the social web (FEDIVERSE=on): the period's sums, the followers last counted, and
   * each day with a count, newest first; undefined when nothing of it was counted in the period.
   */
  fediverse?: { totals: FediverseDay; days: FediverseDay[] };
};

/** Pure: n of `of`, or undefined when there is nothing to divide by. */
export const rate = (n: number, of: number): number | undefined => (of > 0 ? n / of : undefined);

/**
 * Pure: ends reached per view, at most 1: a page shown again counts another end and no other view, so
 * ends can outnumber views.
 */
const completionOf = (ends: number, views: number) => {
  const share = rate(ends, views);
  return share === undefined ? undefined : Math.min(share, 1);
};

/**
 * Pure: the report's figures for a period, from the rows of each of a site's stores (one per catalogue:
 * a site whose domain comes from the request has one per domain). A site's visitors are estimated per
 * store and day (linear counting, app/counts/tally.ts), then added; the rest is added as it is. Rows of
 * days outside the period are left out.
 */
export function figuresOf(stores: CountRow[][], period: Period): Figures {
  // "": summed over the period by the store.
  const days = new Set(["", ...period.each]);
  const sum = new Map<string, number>();
  const add = (id: string, n: number) => sum.set(id, (sum.get(id) ?? 0) + n);
  const pages = new Set<string>();
  const keys = new Map<string, Set<string>>();

  for (const rows of stores) {
    for (const { day, kind, page, key, n } of rows) {
      if (!days.has(day) || (kind === "visitors" && page !== "")) continue;
      const value = kind === "visitors" ? visitorEstimate(n, VISITOR_BITS.site) : n;
      add(`${kind}\0${page}\0${key}`, value);
      if (page !== "") pages.add(page);
      else if (key === "") add(`${kind}@${day}`, value);
      if (key !== "") {
        let known = keys.get(kind);
        if (!known) keys.set(kind, (known = new Set()));
        known.add(key);
      }
    }
  }
  const of = (kind: string, page = "", key = "") => sum.get(`${kind}\0${page}\0${key}`) ?? 0;
  const ranked = (kind: string, top: number) => {
    const all = [...(keys.get(kind) ?? [])]
      .map((key) => ({ key, n: of(kind, "", key) }))
      .filter((entry) => entry.n > 0);
    all.sort((a, b) => b.n - a.n || a.key.localeCompare(b.key));
    return { total: all.reduce((total, entry) => total + entry.n, 0), top: all.slice(0, top) };
  };
  const counted = (kind: string) => [...sum.keys()].some((id) => id.startsWith(`${kind}\0`) && sum.get(id)! > 0);

  const completion = counted(ACTION_KINDS.readEnd);
  const engaged = counted(ACTION_KINDS.engagedSeconds);
  const perPage = [...pages].map((page) => ({ page, views: of("views", page) })).filter((page) => page.views > 0);
  perPage.sort((a, b) => b.views - a.views || a.page.localeCompare(b.page));
  const articles = perPage.filter((page) => page.page.startsWith(ARTICLE_PREFIX));
  const articleViews = articles.reduce((total, article) => total + article.views, 0);
  /** A kind's count over the articles that had views. */
  const sumOf = (kind: string) => articles.reduce((total, article) => total + of(kind, article.page), 0);

  const fediverseOf = (day: string, at: (kind: string) => number | undefined): FediverseDay => ({
    day,
    followers: at("fediverse_followers"),
    follows: at("fediverse_follows") ?? 0,
    unfollows: at("fediverse_unfollows") ?? 0,
    delivered: at("fediverse_delivered") ?? 0,
    failed: at("fediverse_failed") ?? 0,
    retried: at("fediverse_retried") ?? 0,
    givenUp: at("fediverse_given_up") ?? 0,
  });
  const fediverseDays = period.each
    .filter((day) => FEDIVERSE_KINDS.some((kind) => sum.has(`${kind}@${day}`)))
    .map((day) => fediverseOf(day, (kind) => sum.get(`${kind}@${day}`)))
    .reverse();

  const shown = of(ACTION_KINDS.donateShown);
  return {
    period,
    views: of("views"),
    visitors: of("visitors"),
    daily: period.each.map((day) => ({
      day,
      views: sum.get(`views@${day}`) ?? 0,
      visitors: sum.get(`visitors@${day}`) ?? 0,
    })),
    sources: Object.fromEntries(
      SOURCE_KINDS.map((kind) => {
        const { total, top } = ranked(kind, TOP.sources);
        return [kind, { visitors: total, top }];
      }),
    ) as Figures["sources"],
    articles: {
      viewed: articles.length,
      views: articleViews,
      completion: completion ? completionOf(sumOf(ACTION_KINDS.readEnd), articleViews) : undefined,
      engagedSeconds: engaged ? rate(sumOf(ACTION_KINDS.engagedSeconds), articleViews) : undefined,
      top: articles.slice(0, TOP.articles).map((article) => ({
        ...article,
        completion: completion ? completionOf(of(ACTION_KINDS.readEnd, article.page), article.views) : undefined,
        engagedSeconds: engaged ? rate(of(ACTION_KINDS.engagedSeconds, article.page), article.views) : undefined,
      })),
    },
    pages: perPage.filter((page) => !page.page.startsWith(ARTICLE_PREFIX)),
    funnel:
      shown > 0
        ? {
            shown,
            later: of(ACTION_KINDS.donateLater),
            backdrop: of(ACTION_KINDS.donateBackdrop),
            now: of(ACTION_KINDS.donateNow),
          }
        : undefined,
    donatePanel: of(ACTION_KINDS.donatePanel),
    outbound: ranked(ACTION_KINDS.outbound, TOP.hosts),
    embeds: ranked(ACTION_KINDS.embed, TOP.hosts),
    fediverse:
      fediverseDays.length > 0
        ? {
            totals: {
              ...fediverseOf("", of),
              followers: fediverseDays.find((day) => day.followers !== undefined)?.followers,
            },
            days: fediverseDays,
          }
        : undefined,
  };
}
