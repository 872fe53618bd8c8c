import type { ReadRate } from "~/counts/read-rate";

/**
 * The catalogue of one site: every article with its text, searchable. The interface is asynchronous so
 * that a store on a database server can stand behind it as well as the SQLite file of each site.
 */

/** An article as the list pages give it: enough for a card, a result and a sitemap entry. */
export type CatalogueEntry = {
  slug: string;
  title: string;
  description: string;
  image?: string;
  /** Publication date as the source gives it; the details always do, the backend's list does not. */
  date?: string;
  keywords?: string[];
};

/** An article with its body, from the details call or an embedded file. */
export type CatalogueArticle = CatalogueEntry & { date: string; keywords: string[]; body: string };

/** Matches are counted up to this many; beyond, the page says "more than 1,000". */
export const MAX_COUNTED = 1000;

export type SnippetPart = { text: string; mark: boolean };

export type SearchHit = { slug: string; title: string; date?: string; image?: string; snippet: SnippetPart[] };

export type SearchResults = {
  /** Matches counted, up to MAX_COUNTED. */
  total: number;
  /** More than MAX_COUNTED articles match: counting them all would cost more than the search. */
  more: boolean;
  hits: SearchHit[];
  /** "all": every word matched; "any": none did, so any word, or the start of one, matched instead. */
  match: "all" | "any";
  /** When no article has every word: the query with each unknown word replaced by the closest indexed one. */
  suggestion?: string;
};

export type KeywordPage = { label: string; total: number; entries: CatalogueEntry[] };

export interface Catalogue {
  /**
   * Records list entries; answers the slugs whose body should be fetched (new, or changed since). An
   * entry keeps the body and the details it had.
   */
  putEntries(entries: readonly CatalogueEntry[]): Promise<string[]>;
  /** Stores an article with its body. Answers false when the stored copy was the same already. */
  putArticle(article: CatalogueArticle): Promise<boolean>;
  remove(slugs: readonly string[]): Promise<void>;
  /** Leaves a body that could not be had (a reply that does not fit, an error for that article alone) until retryDeferred. */
  deferBody(slug: string): Promise<void>;
  /** Asks again for the bodies deferred (after each sweep). */
  retryDeferred(): Promise<void>;
  /** Slugs still waiting for their body, oldest first. */
  missingBodies(limit: number): Promise<string[]>;
  /** Up to `limit` slugs of articles holding a body, after `slug` in the store's order of slugs ("" for the first): the sync's rolling re-read. */
  bodiesAfter(slug: string, limit: number): Promise<string[]>;
  slugs(): Promise<string[]>;
  count(): Promise<{ articles: number; withBody: number }>;
  search(query: string, page: number, pageSize: number): Promise<SearchResults>;
  keywordPage(key: string, page: number, pageSize: number): Promise<KeywordPage | undefined>;
  /** Keywords with how many articles carry each, for the sitemap. */
  keywords(): Promise<{ key: string; label: string; count: number; lastmod?: string }[]>;
  /**
   * Up to `count` other articles sharing the most keyword words with `about`, among equals the more often
   * read to the end (`readRate`), then the newest; after them, of the newest, the more often read to the end.
   */
  related(
    about: { slug: string; title: string; keywords: string[] },
    count: number,
    readRate?: ReadRate,
  ): Promise<CatalogueEntry[]>;
  /** The entries the catalogue has of these slugs, in their order (the others left out). */
  entries(slugs: readonly string[]): Promise<CatalogueEntry[]>;
  /** Whether the catalogue has an article of this slug (the counts keep only its articles by name). */
  has(slug: string): Promise<boolean>;
  /** Publication dates (ISO) of the given slugs, for sitemaps. */
  dates(slugs: readonly string[]): Promise<Map<string, string>>;
  getState(name: string): Promise<string | undefined>;
  setState(name: string, value: string): Promise<void>;
  /** Holds the right to sync for `ms` (renewed by calling again); false while another process holds it. */
  lease(holder: string, ms: number): Promise<boolean>;
  /** Gives the lease up (a process that stops), so another may sync at once. */
  release(holder: string): Promise<void>;
  close(): void;
}
