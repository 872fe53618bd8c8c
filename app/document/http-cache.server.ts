import type { Settings } from "~/site/config.server";

export type CacheKind = "page" | "missing" | "unavailable" | "file";

export type HttpCache = ReturnType<typeof httpCachePolicy>;

/**
 * Cache-Control per kind of response, from the process's HTTP_CACHE_* settings (handed down by the service
 * registry, app/services). Pages may be kept by browsers and shared caches (a CDN) and served stale while
 * they refresh or while the origin fails; a 404 only briefly; a 503 never, so an outage is not remembered.
 */
export function httpCachePolicy({ maxAge, sMaxAge, staleWhileRevalidate, staleIfError }: Settings["httpCache"]) {
  const control = (kind: CacheKind): string => {
    switch (kind) {
      case "page":
        return `public, max-age=${maxAge}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}, stale-if-error=${staleIfError}`;
      case "file":
        return `public, max-age=3600, s-maxage=3600, stale-while-revalidate=${staleWhileRevalidate}, stale-if-error=${staleIfError}`;
      case "missing":
        return "public, max-age=60, s-maxage=60";
      case "unavailable":
        return "no-store";
    }
  };
  return {
    control,
    headers: (kind: CacheKind): HeadersInit => ({ "Cache-Control": control(kind) }),
  };
}
