import { LRUCache } from "lru-cache";
import { matchRoutes, type RouteObject } from "react-router-dom";

/** A route as the Remix build lists it (ServerBuild["routes"]): flat, each naming its parent. */
export type BuildRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

/**
 * Pure: the id of the Remix route that answers a path ("routes/blog.$slug"), for metrics labels that
 * must come from a fixed set, never the raw path. Data requests of client navigation (`/blog.data`,
 * `/_root.data` for the home page) name the route of their page. A path no route takes gives "none".
 * A match costs ~30 µs (the router ranks every route each time), so the answers for recent paths are
 * kept: a popular page costs a lookup.
 */
export function routeIdMatcher(routes: Record<string, BuildRoute | undefined>): (pathname: string) => string {
  const tree = (parentId?: string): RouteObject[] =>
    Object.values(routes)
      .filter((route): route is BuildRoute => route !== undefined && route.parentId === parentId)
      .map(({ id, path, index, caseSensitive }) =>
        index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: tree(id) },
      );
  const routeTree = tree(undefined);
  const recent = new LRUCache<string, string>({ max: 1000 });
  return (pathname) => {
    let id = recent.get(pathname);
    if (id === undefined) {
      const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
      id = matchRoutes(routeTree, decodable(page))?.at(-1)?.route.id ?? "none";
      recent.set(pathname, id);
    }
    return id;
  };
}

/**
 * The path, with every `%` escaped when it cannot be decoded: the router then matches the raw path, as it
 * does anyway for such a path, but without a console warning for each one, which a reader's beacons could
 * otherwise write into the server's log at will.
 */
function decodable(path: string): string {
  try {
    decodeURIComponent(path);
    return path;
  } catch {
    return path.replaceAll("%", "%25");
  }
}
