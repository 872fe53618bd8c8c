import { escapeMarkup } from "~/document/escape-markup";
import { MAX_PAGE, PAGE_SIZE, pageCount } from "~/blog/pagination";

/**
 * The sitemap as an index of parts (sitemaps.org): one part for the fixed pages and the blog's list
 * pages, then one part per slice of articles. Each part costs a bounded number of backend calls, however
 * large the blog grows (decision 017).
 */

/** Articles per part: ten of the backend's list pages. */
export const ARTICLES_PER_PART = 100;
/** The sitemaps.org limit on sitemaps in one index file. */
const MAX_PARTS = 50_000;

export const SITEMAP_INDEX_PATH = "/sitemap.xml";
export const PAGES_PART_PATH = "/sitemap-pages.xml";
const ARTICLES_PART_PATH = "/sitemap-articles.xml";
/** The keyword pages' part (app/search): their first pages, the most used keywords first. */
export const KEYWORDS_PART_PATH = "/sitemap-keywords.xml";
/** The sitemaps.org limit on addresses in one sitemap file. */
export const MAX_URLS = 50_000;

export function articlePartPath(part: number): string {
  return `${ARTICLES_PART_PATH}?part=${part}`;
}

export function articlePartCount(total: number): number {
  return Math.min(Math.ceil(Math.max(0, total) / ARTICLES_PER_PART), MAX_PARTS);
}

/** The backend's list pages one article part covers. */
export function listPagesOfPart(part: number): number[] {
  const perPart = ARTICLES_PER_PART / PAGE_SIZE;
  return Array.from({ length: perPart }, (_, index) => (part - 1) * perPart + index + 1);
}

/** The list pages the fixed part names: as many as the blog has, up to the last one the site serves. */
export function listPageCount(total: number): number {
  return Math.max(1, Math.min(pageCount(total), MAX_PAGE));
}

/** `?part=N` with N a plain positive number, written once; anything else is no part at all. */
export function parsePartParam(searchParams: URLSearchParams): number | undefined {
  const values = searchParams.getAll("part");
  const [value] = values;
  if (values.length !== 1 || value === undefined || !/^[1-9]\d{0,5}$/.test(value)) return undefined;
  const part = Number(value);
  return part <= MAX_PARTS ? part : undefined;
}

export type SitemapUrl = { loc: string; lastmod?: string };

export function urlsetXml(urls: SitemapUrl[]): string {
  const body = urls
    .map(
      ({ loc, lastmod }) =>
        `  <url><loc>${escapeMarkup(loc)}</loc>${lastmod ? `<lastmod>${escapeMarkup(lastmod)}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function sitemapIndexXml(locs: string[]): string {
  const body = locs.map((loc) => `  <sitemap><loc>${escapeMarkup(loc)}</loc></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}
