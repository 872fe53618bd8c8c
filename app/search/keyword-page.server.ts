import { data, redirect } from "@remix-run/node";
import type { BlogEntry } from "~/blog/types";
import { siteIdentity, type SiteSettings } from "~/site/config.server";
import type { PageImages } from "~/images/images.server";
import type { HttpCache } from "~/document/http-cache.server";
import { MAX_PAGE, pageCount, pageHref, parsePageParam, PAGE_SIZE } from "~/blog/pagination";
import { noindexMeta, pageMeta } from "~/crawlers/seo";
import type { Catalogue, CatalogueEntry } from "./catalogue";
import { keywordKey, keywordPath } from "./keyword-key";

/** A catalogue entry as a blog card shows it, with its image's addresses from `cardImage`. */
export function asBlogCard(entry: CatalogueEntry, cardImage: PageImages["cardImage"]): BlogEntry {
  return {
    id: entry.slug,
    slug: entry.slug,
    metaTitle: entry.title,
    metaDescription: entry.description,
    image: cardImage(entry.image),
  };
}

/**
 * A keyword's page: every article with that keyword, newest first, ten a page, from the catalogue.
 * `/keywords/Zen%20Retreat` is sent to `/keywords/zen-retreat`, the one address of that keyword.
 * `catalogue` opens the site's catalogue (it throws when it cannot be: 503); `cardImage` gives a card's
 * image addresses, `httpCache` the answers' Cache-Control.
 */
export async function loadKeywordPage(
  request: Request,
  site: SiteSettings,
  param: string,
  {
    catalogue,
    cardImage,
    httpCache: { headers: cacheHeaders },
  }: { catalogue: () => Catalogue; cardImage: PageImages["cardImage"]; httpCache: HttpCache },
) {
  const key = keywordKey(param);
  const identity = siteIdentity(request, site);
  const { t } = identity.language.translator;
  const notFound = () => data(null, { status: 404, headers: cacheHeaders("missing") });
  if (!key) throw notFound();
  const base = keywordPath(key);
  const pageParam = parsePageParam(new URL(request.url).searchParams, base);
  if (!pageParam.canonical) throw redirect(pageParam.redirectTo, 301);
  const { page } = pageParam;
  if (key !== param) throw redirect(pageHref(page, base), 301);
  if (page > MAX_PAGE) throw notFound();
  let found;
  try {
    found = await catalogue().keywordPage(key, page, PAGE_SIZE);
  } catch (error) {
    console.error(`Keyword ${JSON.stringify(key)}:`, error);
    return data(
      { state: "unavailable" as const, meta: noindexMeta(`${t("search.title")} · ${site.siteName}`) },
      { status: 503, headers: { "Retry-After": "60", ...cacheHeaders("unavailable") } },
    );
  }
  if (!found) throw notFound();
  const pages = pageCount(found.total);
  if (page > Math.max(1, pages)) throw notFound();
  const keyword = found.label;
  const meta = pageMeta({
    site: identity,
    path: pageHref(page, base),
    title: `${page > 1 ? t("keywords.page", { keyword, page }) : t("keywords.title", { keyword })} · ${site.siteName}`,
    description: t("keywords.description", { keyword, site: site.siteName }),
    prev: page > 1 ? pageHref(page - 1, base) : undefined,
    next: page < pages ? pageHref(page + 1, base) : undefined,
  });
  return data(
    {
      state: "ok" as const,
      keyword,
      base,
      page,
      pages,
      total: found.total,
      blogs: found.entries.map((entry) => asBlogCard(entry, cardImage)),
      meta,
    },
    { headers: cacheHeaders("page") },
  );
}
