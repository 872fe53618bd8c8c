import { createHash } from "node:crypto";
import { isoDate } from "~/blog/dates";
import type { ReadRate } from "~/counts/read-rate";
import {
  MAX_COUNTED,
  type CatalogueArticle,
  type CatalogueEntry,
  type SearchHit,
  type SearchResults,
  type SnippetPart,
} from "./catalogue";
import { plainLatin } from "./folding";
import { plainTextInPieces } from "./indexed-text.server";
import { keywordKey } from "./keyword-key";
import {
  fillWithNewest,
  keywordWords,
  rankRelated,
  RELATED_CANDIDATES,
  RELATED_WORDS,
  type RelatedCandidate,
} from "./read-next";
import { suggestWord } from "./suggest";
import { foldedText, queryWords, spacedText, type QueryWord } from "./tokenize";

/**
 * What both catalogue stores do alike, the SQLite file (sqlite-catalogue.server.ts) and PostgreSQL
 * (pg-catalogue.server.ts): the hashes that tell an unchanged article, what a write stores, what text is
 * indexed, the order of a search and of related articles, and the limits. The stores hold their SQL alone
 * and call these, so that they never disagree on what is unchanged or on what a search answers. No database
 * here: a store's queries come in as callbacks.
 */

/** Bodies are kept up to this many characters of text: enough for any article, bounded for a hostile one. */
export const MAX_BODY_CHARS = 300_000;

/**
 * Ranking stays bounded at any size (docs/decisions/040): when at most EXACT_UP_TO articles match, every
 * match is ranked; beyond, the articles with the words in their title, description or keywords come first,
 * then the others, each ranked among the newest NEWEST_RANKED of them: as many as the MAX_COUNTED results
 * ever offered, so every offered place is filled either way.
 */
export const EXACT_UP_TO = 5000;
export const NEWEST_RANKED = MAX_COUNTED;

/** Snippets: the marks around a matched word (no markup ever comes from the stored text), words around the matches. */
export const MARK_START = "\u0002";
export const MARK_END = "\u0003";
export const SNIPPET = { size: 28, start: MARK_START, end: MARK_END, ellipsis: "…" } as const;

// Hashes

const hash = (value: unknown) => createHash("sha1").update(JSON.stringify(value)).digest("base64url");

/** The hash of what a list entry gives: a list entry whose hash is the stored one changes nothing. */
export const entryHash = (entry: Pick<CatalogueEntry, "title" | "description" | "image">) =>
  hash([entry.title, entry.description, entry.image ?? null]);

/** The hash of an article with its body (its text as bodyTextOf gives it): an article whose two hashes are the stored ones changes nothing. */
export const bodyHash = (
  article: Pick<CatalogueArticle, "title" | "description" | "image" | "date" | "keywords">,
  body: string,
) => hash([article.title, article.description, article.image ?? null, article.date, article.keywords, body]);

/** The text of an article's body that a store indexes and hashes: its markdown made plain, cut to MAX_BODY_CHARS. */
export async function bodyTextOf(article: Pick<CatalogueArticle, "body">): Promise<string> {
  return (await plainTextInPieces(article.body)).slice(0, MAX_BODY_CHARS);
}

// Rows

/** Keywords as a store keeps them: SQLite's JSON text, or the list PostgreSQL's jsonb is read as. */
export type StoredKeywords = string | string[];

export const keywordsOf = (stored: StoredKeywords): string[] =>
  typeof stored === "string" ? (JSON.parse(stored) as string[]) : stored;

/** An article's row as both stores read it. */
export type EntryRow = {
  slug: string;
  title: string;
  description: string;
  image: string | null;
  date: string | null;
  keywords: StoredKeywords;
};

export function entryOf(row: EntryRow): CatalogueEntry {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    image: row.image ?? undefined,
    date: row.date ?? undefined,
    keywords: keywordsOf(row.keywords),
  };
}

/** What a store holds of an article, as a write needs it. */
export type StoredArticle = {
  entry_hash: string;
  body_hash: string | null;
  date: string | null;
  keywords: StoredKeywords;
};

/** An article's row as both stores write it. body_wanted: 1 while its body is wanted, 0 once stored, 2 deferred (Catalogue.deferBody). */
export type ArticleRow = {
  slug: string;
  title: string;
  description: string;
  image: string | null;
  date: string | null;
  date_iso: string | null;
  keywords: string;
  entry_hash: string;
  body_hash: string | null;
  body_wanted: number;
};

/** A list entry with what the store holds of it: what the entry gives wins. */
export function mergeEntry(
  entry: CatalogueEntry,
  old: Pick<StoredArticle, "date" | "keywords"> | undefined,
): CatalogueEntry {
  // Details the list does not give (date, keywords) stay until the body is fetched again.
  return {
    ...entry,
    date: entry.date ?? old?.date ?? undefined,
    keywords: entry.keywords ?? (old ? keywordsOf(old.keywords) : []),
  };
}

/**
 * What putEntries writes of a list entry, given what the store holds of its slug: nothing when its entry
 * hash is the stored one; else its row, wanting its body again, and the entry merged (mergeEntry) to index.
 */
export function entryWrite(
  entry: CatalogueEntry,
  old: StoredArticle | undefined,
): { row: ArticleRow; merged: CatalogueEntry } | undefined {
  const entry_hash = entryHash(entry);
  if (old && old.entry_hash === entry_hash) return undefined;
  const merged = mergeEntry(entry, old);
  const row: ArticleRow = {
    slug: entry.slug,
    title: merged.title,
    description: merged.description,
    image: merged.image ?? null,
    date: merged.date ?? null,
    date_iso: isoDate(merged.date) ?? null,
    keywords: JSON.stringify(merged.keywords),
    entry_hash,
    body_hash: old?.body_hash ?? null,
    body_wanted: 1,
  };
  return { row, merged };
}

/** Whether a stored article is the same as the one fetched, by both hashes. */
export const unchanged = (
  old: Pick<StoredArticle, "entry_hash" | "body_hash"> | undefined,
  row: Pick<ArticleRow, "entry_hash" | "body_hash">,
) => Boolean(old && old.body_hash === row.body_hash && old.entry_hash === row.entry_hash);

/** The row putArticle writes of an article with its body's text (bodyTextOf); the store writes it unless unchanged. */
export function articleRow(article: CatalogueArticle, body: string): ArticleRow {
  return {
    slug: article.slug,
    title: article.title,
    description: article.description,
    image: article.image ?? null,
    date: article.date || null,
    date_iso: isoDate(article.date) ?? null,
    keywords: JSON.stringify(article.keywords),
    entry_hash: entryHash(article),
    body_hash: bodyHash(article, body),
    body_wanted: 0,
  };
}

// Indexed text

/**
 * The searchable text of an entry's head: its title, description and keywords spaced for the index
 * (tokenize.ts), and folded; a store indexes `folded` with its body's folded text after it (foldedWithBody).
 */
export function headTextOf(entry: CatalogueEntry) {
  const keywords = (entry.keywords ?? []).join(", ");
  return {
    title: spacedText(entry.title),
    description: spacedText(entry.description),
    keywords: spacedText(keywords),
    folded: foldedText(`${entry.title} ${entry.description} ${keywords}`),
  };
}

export const foldedWithBody = (head: { folded: string }, bodyFolded: string) => `${head.folded} ${bodyFolded}`;

/** The keys of an entry's keywords (keyword-key.ts), each with the first of its keywords as its label; `clean` readies both for the store. */
export function keywordLabels(
  keywords: readonly string[] | undefined,
  clean: (text: string) => string = (text) => text,
): Map<string, string> {
  const labels = new Map<string, string>();
  for (const keyword of keywords ?? []) {
    const key = clean(keywordKey(keyword));
    if (key && !labels.has(key)) labels.set(key, clean(keyword));
  }
  return labels;
}

/** A keyword of the sitemap's list, from a store's row. */
export const keywordOf = (row: { key: string; label: string; count: number; lastmod: string | null }) => ({
  key: row.key,
  label: row.label,
  count: row.count,
  lastmod: row.lastmod ?? undefined,
});

// Search

/** How many matched, up to MAX_COUNTED, from a count that stops at MAX_COUNTED + 1. */
export const countedUpTo = (counted: number) => ({
  total: Math.min(counted, MAX_COUNTED),
  more: counted > MAX_COUNTED,
});

/** A snippet cut with the marks of SNIPPET, as parts to render. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const add = (text: string | undefined, mark: boolean) => {
    const shown = text?.replaceAll("\u200b", "");
    if (!shown) return;
    // Neighbouring marks (words of an unspaced script, split apart by the index) read as one.
    const last = parts.at(-1);
    if (last && last.mark && mark) last.text += shown;
    else parts.push({ text: shown, mark });
  };
  const [before, ...marked] = snippet.split(MARK_START);
  add(before, false);
  for (const piece of marked) {
    const end = piece.indexOf(MARK_END);
    add(end === -1 ? piece : piece.slice(0, end), true);
    if (end !== -1) add(piece.slice(end + 1), false);
  }
  return parts;
}

/** The body's snippet when the words are in it, else the description's when they are there, else the body's start. */
export function chosenSnippet(body: string, description: () => string): string {
  const marked = (text: string) => text.includes(MARK_START);
  if (marked(body)) return body;
  const described = description();
  return !marked(described) && body ? body : described;
}

/** A result from a store's row and its snippet (chosenSnippet). */
export function hitOf(
  row: { slug: string; title: string; date: string | null; image: string | null },
  snippet: string,
): SearchHit {
  return {
    slug: row.slug,
    title: row.title,
    date: row.date ?? undefined,
    image: row.image ?? undefined,
    snippet: snippetParts(snippet),
  };
}

type Maybe<T> = T | Promise<T>;
export type Found = Pick<SearchResults, "total" | "more" | "hits">;

/** What a store does for a search: its own queries, asked in searchInOrder's order. */
export interface SearchQueries<Query> {
  /** The store's query of the words: every word (strict) or any, or the start of any (loose); undefined when they make none. */
  query(words: QueryWord[], loose: boolean): Query | undefined;
  /** The matches of a query counted (countedUpTo), with the page of them from `offset`, ranked. */
  find(query: Query, limit: number, offset: number): Maybe<Found>;
  /** Whether the index holds a word in any of these spellings. */
  knows(spellings: string[]): Maybe<boolean>;
  /** The indexed word closest to a word the index does not hold (suggestWord, or suggestWordInRounds). */
  closest(plain: string): Maybe<string | undefined>;
}

/**
 * A search: the articles with every word; when none has them all, those with any word or the start of one,
 * with a suggestion of the query spelt as the index spells it.
 */
export async function searchInOrder<Query>(
  text: string,
  page: number,
  pageSize: number,
  store: SearchQueries<Query>,
): Promise<SearchResults> {
  const words = queryWords(text);
  const strict = store.query(words, false);
  if (strict === undefined) return { total: 0, more: false, hits: [], match: "all" };
  const offset = (page - 1) * pageSize;
  const all = await store.find(strict, pageSize, offset);
  if (all.total > 0) return { ...all, match: "all" };
  const loose = store.query(words, true);
  const any = loose === undefined ? { total: 0, more: false, hits: [] } : await store.find(loose, pageSize, offset);
  return { ...any, match: "any", suggestion: await suggestionOf(words, store) };
}

/** The query with each word the index does not hold replaced by the closest one it holds; undefined when none was. */
export async function suggestionOf(
  words: readonly QueryWord[],
  store: Pick<SearchQueries<unknown>, "knows" | "closest">,
): Promise<string | undefined> {
  let changed = false;
  const replaced: string[] = [];
  for (const { word, spellings } of words) {
    const better = (await store.knows(spellings)) ? undefined : await store.closest(plainLatin(word));
    if (better) changed = true;
    replaced.push(better || word);
  }
  return changed ? replaced.join(" ") : undefined;
}

type Near = { term: string; doc: number };

/**
 * suggestWord for a store that reads its words asynchronously: suggestWord asks for ranges of indexed words
 * synchronously, so each range it asks for is read, then it is asked again, until every range it wants has
 * been read.
 */
export async function suggestWordInRounds(
  plain: string,
  near: (from: string, to: string, limit: number) => Promise<Near[]>,
): Promise<string | undefined> {
  const ranges = new Map<string, Near[]>();
  let better: string | undefined;
  for (let round = 0; round < 4; round++) {
    const missing: [string, string, number][] = [];
    better = suggestWord(plain, (from, to, limit) => {
      const found = ranges.get(`${from}\u0000${to}\u0000${limit}`);
      if (!found) missing.push([from, to, limit]);
      return found ?? [];
    });
    if (missing.length === 0) break;
    for (const [from, to, limit] of missing)
      ranges.set(`${from}\u0000${to}\u0000${limit}`, await near(from, to, limit));
  }
  return better;
}

// Related articles

/** What a store does for related articles. */
export interface RelatedQueries {
  /**
   * Up to `limit` of the newest NEWEST_RANKED articles whose keywords hold any of the words (whole words,
   * not their starts), best first, found by the store's index, with their dates (ISO, "" for none).
   */
  candidates(words: QueryWord[], limit: number): Maybe<RelatedCandidate[]>;
  /** The newest `limit` articles but the one of `slug`, newest first. */
  newest(slug: string, limit: number): Maybe<CatalogueEntry[]>;
}

/** A candidate of RelatedQueries from a store's row. */
export const candidateOf = (row: EntryRow & { date_iso: string | null }): RelatedCandidate => ({
  entry: entryOf(row),
  dateIso: row.date_iso ?? "",
});

/**
 * Catalogue.related: the articles whose keywords share words with this one's (at most RELATED_CANDIDATES,
 * found by the store's index), ranked by read next's rule (read-next.ts), then the newest of all.
 */
export async function relatedInOrder(
  about: { slug: string; keywords: string[] },
  count: number,
  readRate: ReadRate | undefined,
  store: RelatedQueries,
): Promise<CatalogueEntry[]> {
  const own = keywordWords(about.keywords);
  const words = queryWords([...own].join(" ")).slice(0, RELATED_WORDS);
  const candidates =
    words.length > 0
      ? (await store.candidates(words, RELATED_CANDIDATES)).filter((candidate) => candidate.entry.slug !== about.slug)
      : [];
  const found = rankRelated(own, candidates, count, readRate);
  return found.length < count
    ? fillWithNewest(found, await store.newest(about.slug, count * 2), count, readRate)
    : found;
}
