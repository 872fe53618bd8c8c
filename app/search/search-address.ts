import { MAX_QUERY_CHARS } from "./query-limits";

/** Result pages beyond this are not offered: the first 1,000 results (MAX_COUNTED) are more than anyone pages through. */
export const MAX_RESULT_PAGE = 100;
export const RESULTS_PER_PAGE = 10;

/** `/search?q=…` and `&page=N` from page 2 on. */
export function searchHref(query: string, page = 1): string {
  const q = `/search?q=${encodeURIComponent(query).replaceAll("%20", "+")}`;
  return page > 1 ? `${q}&page=${page}` : q;
}

export type SearchParams = { query: string; page: number; redirectTo?: string };

/**
 * What a search address asks for: the first `q`, cut to MAX_QUERY_CHARS characters (whole ones), and
 * the page. A page that is not a plain number from 2 up, or a repeated one, goes to the address without it.
 */
export function parseSearchParams(searchParams: URLSearchParams): SearchParams {
  const query = [...(searchParams.get("q") ?? "")].slice(0, MAX_QUERY_CHARS).join("");
  const pages = searchParams.getAll("page");
  if (pages.length === 0) return { query, page: 1 };
  const [value] = pages;
  if (
    pages.length === 1 &&
    value &&
    /^[1-9]\d{0,2}$/.test(value) &&
    Number(value) > 1 &&
    Number(value) <= MAX_RESULT_PAGE
  ) {
    return { query, page: Number(value) };
  }
  return { query, page: 1, redirectTo: searchHref(query) };
}
