/** The spec's page size and the most page-number links shown at once. */
export const PAGE_SIZE = 10;
export const MAX_PAGE_LINKS = 5;
/** Page numbers beyond this are answered 404 without asking the backend. */
export const MAX_PAGE = 10_000;

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(0, Math.ceil(total / pageSize));
}

/**
 * The page numbers to show: at most five, moving with the current page so it stays in view
 * (centred where possible, pinned to the first or last pages near the ends).
 */
export function pageWindow(current: number, pages: number, size = MAX_PAGE_LINKS): number[] {
  if (pages <= 0) return [];
  const count = Math.min(size, pages);
  const start = Math.min(Math.max(1, current - Math.floor(count / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}

export type PageParam = { page: number; canonical: true } | { page: number; canonical: false; redirectTo: string };

/**
 * Reads `?page=` from a blog list URL. Page 1 is `/blog` itself; anything malformed (letters, 0,
 * negatives, fractions, repeats) is sent to the canonical list URL rather than guessed at.
 */
export function parsePageParam(searchParams: URLSearchParams, basePath = "/blog"): PageParam {
  const values = searchParams.getAll("page");
  if (values.length === 0) return { page: 1, canonical: true };
  const [value] = values;
  if (values.length === 1 && value !== undefined && /^[1-9]\d{0,8}$/.test(value)) {
    const page = Number(value);
    if (page === 1) return { page: 1, canonical: false, redirectTo: basePath };
    return { page, canonical: true };
  }
  return { page: 1, canonical: false, redirectTo: basePath };
}

export function pageHref(page: number, basePath = "/blog"): string {
  return page <= 1 ? basePath : `${basePath}?page=${page}`;
}
