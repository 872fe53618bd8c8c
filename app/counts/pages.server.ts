import { isPossibleSlug, slugFromPath } from "~/blog/slug";
import { routeIdMatcher, type BuildRoute } from "~/metrics/route-id";
import { OTHER } from "./tally";

const ARTICLE_ROUTE = "routes/blog.$slug";
/** The catch-all route answers every address no page has: its 404s are no page of the site. */
const CATCH_ALL = "routes/$";

/**
 * The page a view is counted for, from the path a beacon names: an article by its address when the
 * site's catalogue has it (`/blog/<slug>`), another page by its route's id ("routes/search", every
 * keyword page as one), anything else OTHER. So the pages counted are bounded by the site's articles.
 */
export function pageOfPath(routes: Record<string, (BuildRoute & { module?: { default?: unknown } }) | undefined>) {
  const routeOf = routeIdMatcher(routes);
  const pages = new Set(
    Object.values(routes).flatMap((route) => (route && typeof route.module?.default === "function" ? [route.id] : [])),
  );
  pages.delete(CATCH_ALL);
  return async (path: string, hasArticle: (slug: string) => Promise<boolean>): Promise<string> => {
    const id = routeOf(path);
    if (!pages.has(id)) return OTHER;
    if (id !== ARTICLE_ROUTE) return id;
    const slug = slugFromPath(path);
    return slug !== undefined && isPossibleSlug(slug) && (await hasArticle(slug).catch(() => false))
      ? `/blog/${slug}`
      : OTHER;
  };
}
