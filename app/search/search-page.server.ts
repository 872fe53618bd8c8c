import { data, redirect } from "@remix-run/node";
import { siteIdentity, type SiteSettings } from "~/site/config.server";
import { formatPublishedDate } from "~/blog/dates";
import type { HttpCache } from "~/document/http-cache.server";
import { pageCount } from "~/blog/pagination";
import { noindexMeta } from "~/crawlers/seo";
import { metrics } from "~/metrics/record.server";
import type { Catalogue } from "./catalogue";
import { MAX_RESULT_PAGE, parseSearchParams, RESULTS_PER_PAGE } from "./search-address";
import { queryWords } from "./tokenize";

/** The site's catalogue as the site's services hand it: opened on use (it throws when it cannot be), and whether a sync of its own fills it. */
export type CatalogueAccess = { open: () => Catalogue; syncs: boolean };

/**
 * The results page's data: every state is a page in the site's language with the right status.
 * Never indexed (noindex, left out of the sitemap); cached like other pages, by `q` and `page` alone, as
 * `httpCache` says.
 */
export async function loadSearchPage(
  request: Request,
  site: SiteSettings,
  catalogue: CatalogueAccess,
  { headers: cacheHeaders }: HttpCache,
) {
  const { query, page, redirectTo } = parseSearchParams(new URL(request.url).searchParams);
  if (redirectTo) throw redirect(redirectTo, 301);
  const identity = siteIdentity(request, site);
  const { t } = identity.language.translator;
  const heading = query.trim() ? t("search.resultsTitle", { query }) : t("search.title");
  const meta = noindexMeta(`${heading} · ${site.siteName}`);
  if (queryWords(query).length === 0)
    return data({ state: "empty" as const, query, meta, siteName: site.siteName }, { headers: cacheHeaders("page") });
  const started = performance.now();
  let results;
  let complete = false;
  /** While the first sync reads the site's list: how many articles it has read (docs/decisions/046). */
  let reading: number | undefined;
  try {
    const store = catalogue.open();
    results = await store.search(query, page, RESULTS_PER_PAGE);
    // Until the first sync has read the whole list, the results may lack articles: cached briefly only, and
    // the page says so rather than that no article matches.
    complete = (await store.getState("sweptAt")) !== undefined;
    if (!complete && catalogue.syncs) reading = (await store.count()).articles;
  } catch (error) {
    console.error(`Search for ${JSON.stringify(query)}:`, error);
    metrics.searchRequest(site.label, "failed", (performance.now() - started) / 1000);
    return data(
      { state: "unavailable" as const, query, meta },
      { status: 503, headers: { "Retry-After": "60", ...cacheHeaders("unavailable") } },
    );
  }
  metrics.searchRequest(site.label, results.total > 0 ? "found" : "none", (performance.now() - started) / 1000);
  const pages = Math.min(pageCount(results.total, RESULTS_PER_PAGE), MAX_RESULT_PAGE);
  if (page > Math.max(1, pages)) throw data(null, { status: 404, headers: cacheHeaders("missing") });
  const hits = results.hits.map(({ slug, title, date, snippet }) => ({
    slug,
    title,
    snippet,
    date: formatPublishedDate(date, identity.language.lang, identity.language.messages),
  }));
  return data(
    {
      state: "results" as const,
      query,
      page,
      pages,
      total: results.total,
      more: results.more,
      match: results.match,
      suggestion: results.suggestion,
      hits,
      meta,
      reading,
      siteName: site.siteName,
    },
    { headers: cacheHeaders(complete ? "page" : "missing") },
  );
}
