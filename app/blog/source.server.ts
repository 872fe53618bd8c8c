import type { BlogArticle, BlogListPage } from "./types";

/**
 * Where articles come from: the hosted backend or the embedded markdown files. Both answer the same
 * two questions; both throw BlogUnavailableError when they cannot.
 */
export interface BlogSource {
  /** One page (1-based) of the newest-first list, for a site domain. */
  listPage(domain: string, page: number): Promise<BlogListPage>;
  /** One article, or null when there is no such article. */
  article(slug: string): Promise<BlogArticle | null>;
}
