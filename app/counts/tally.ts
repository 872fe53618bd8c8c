/**
 * Daily counts per site (docs/decisions/050, 052): what is counted, and the bounds that hold whatever
 * readers' browsers send. A row is a day (UTC, YYYY-MM-DD), a kind, a page and a key; the page is "" for
 * the whole site, a known page's route, an article of the catalogue ("/blog/<slug>") or OTHER; the key is
 * "" but for the keyed kinds (sources, outbound links and embeds), whose key is a host or a utm value.
 */

export const OTHER = "other";

/** Counted per page: views, and visitors (distinct per day, see VISITOR_BITS). */
export const PAGE_KINDS = ["views", "visitors"] as const;
/** Counted per site, once per visitor and day, on their first view: where they came from. */
export const SOURCE_KINDS = ["referrer", "utm_source", "utm_medium", "utm_campaign"] as const;

/** Counted per article (page "/blog/<slug>"), never for another page: its end reached, and seconds read. */
export const ARTICLE_ACTS = ["read_end", "engaged_seconds"] as const;
/** Counted for the site (page ""): the donation pop-up's funnel, and the panel shown without JavaScript. */
export const SITE_ACTS = ["donate_shown", "donate_later", "donate_backdrop", "donate_now", "donate_panel"] as const;
/** Counted for the site by the host clicked, within SOURCE_SLOTS as the sources are. */
export const HOST_ACTS = ["outbound", "embed"] as const;

/**
 * Counted for the site by the server, never sent by a reader: its followers on the social web (at the day's
 * first look, one origin counting), those who followed and left, and its deliveries by outcome.
 */
export const FEDIVERSE_KINDS = [
  "fediverse_followers",
  "fediverse_follows",
  "fediverse_unfollows",
  "fediverse_delivered",
  "fediverse_failed",
  "fediverse_retried",
  "fediverse_given_up",
] as const;

export type PageKind = (typeof PAGE_KINDS)[number];
export type SourceKind = (typeof SOURCE_KINDS)[number];
export type ActKind = (typeof ARTICLE_ACTS)[number] | (typeof SITE_ACTS)[number] | (typeof HOST_ACTS)[number];
export type FediverseKind = (typeof FEDIVERSE_KINDS)[number];
export type Kind = PageKind | SourceKind | ActKind | FediverseKind;

/** Kinds whose keys take a slot of their own per site and day, the first SOURCE_SLOTS of them; the rest go to OTHER. */
const KEYED = new Set<string>([...SOURCE_KINDS, ...HOST_ACTS]);
export const isKeyed = (kind: string) => KEYED.has(kind);

/** A count to add: `n` to the row of this day, kind, page and key. */
export type Tally = { day: string; kind: Kind; page: string; key: string; n: number };

/** A visitor's mark: one bit of the day's bitmap of a page; their sources count if the bit was not set yet. */
export type Mark = { day: string; page: string; bit: number; sources?: { kind: SourceKind; key: string }[] };

/**
 * Distinct keys (referrer hosts, utm values, hosts of outbound links and embeds) kept per site, day and
 * kind; any beyond go to OTHER.
 * The first ones of the day take the slots: a source that matters comes early and often.
 */
export const SOURCE_SLOTS = 50;
/** The longest key kept: a host name, or a utm value cut to this. */
export const MAX_KEY_LENGTH = 100;

/**
 * Bits of a day's visitor bitmap: the site's (page "") and each page's. A visitor sets the bit their keyed
 * hash points at; a bit newly set is one more visitor. Two visitors on one bit count once: the count is
 * corrected by linear counting (visitorEstimate) when read.
 */
export const VISITOR_BITS = { site: 65_536, page: 4096 } as const;
export const bitsOf = (page: string) => (page === "" ? VISITOR_BITS.site : VISITOR_BITS.page);

/** Pure: the number of visitors that set `marked` of `bits` bits (linear counting, Whang et al. 1990). */
export function visitorEstimate(marked: number, bits: number): number {
  if (marked <= 0) return 0;
  if (marked >= bits) return Math.round(bits * Math.log(bits));
  return Math.round(-bits * Math.log(1 - marked / bits));
}

/** Days whose salts and bitmaps are kept: the salt of a day is deleted two days after it began. */
export function keptFrom(day: string): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));
}

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
