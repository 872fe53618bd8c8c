/**
 * A page is its path and the query parameters it reads (docs/decisions/024). Click ids (fbclid, gclid,
 * msclkid), campaign tags (utm_*) and anything unknown are dropped before the page cache and the app, so
 * every such visitor gets the one cached copy of the page, byte for byte, and no loader ever sees them.
 *
 * Parameters are matched by their name as sent (`p%61ge` is not `page`), and every occurrence of a read
 * parameter is kept in order, so the routes judge odd and repeated values as before. docs/nginx.conf keys
 * its cache to match: by path alone, unless the query holds a parameter named here.
 */

/**
 * The parameters each address reads: `page` on the blog list and keyword pages, `q` and `page` on the
 * search results, `part` on the article sitemaps.
 */
function readParameters(path: string): readonly string[] {
  if (path === "/blog" || path.startsWith("/keywords/")) return ["page"];
  if (path === "/search") return ["q", "page"];
  if (path === "/sitemap-articles.xml") return ["part"];
  // Remix's route discovery (v3_lazyRouteDiscovery): the paths to look up, and the build they are for.
  if (path === "/__manifest") return ["p", "version"];
  // Remix's data requests for client navigation: the routes to load, and the page's own parameters.
  if (path === "/blog.data" || (path.startsWith("/keywords/") && path.endsWith(".data"))) return ["page", "_routes"];
  if (path === "/search.data") return ["q", "page", "_routes"];
  if (path.endsWith(".data")) return ["_routes"];
  return [];
}

/** The address as the app sees it: `url` (path and query, as sent) with only the parameters its page reads. */
export function pageAddress(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1) return url;
  const path = url.slice(0, queryStart);
  const read = readParameters(path);
  const kept = url
    .slice(queryStart + 1)
    .split("&")
    .filter((parameter) => read.includes(parameter.split("=", 1)[0]!));
  return kept.length ? `${path}?${kept.join("&")}` : path;
}
