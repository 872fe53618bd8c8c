import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { absoluteUrl } from "~/crawlers/seo";
import { MAX_URLS, urlsetXml } from "~/crawlers/sitemap";
import { keywordPath } from "~/search/keyword-key";

/** The keyword pages, each with its newest article's date as lastmod; from the catalogue, no backend call. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const { fileResponse, missingFile } = crawlerFiles(services.httpCache);
  const { site } = services;
  const origin = siteOrigin(request, site);
  let keywords;
  try {
    keywords = await services.catalogue(services.domainOf(request)).keywords();
  } catch (error) {
    console.error("Keyword sitemap:", error);
    return new Response("Sitemap temporarily unavailable\n", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "60" },
    });
  }
  if (keywords.length === 0) return missingFile("sitemap part");
  const urls = keywords
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, MAX_URLS)
    .map((keyword) => ({ loc: absoluteUrl(origin, keywordPath(keyword.key)), lastmod: keyword.lastmod }));
  return fileResponse(urlsetXml(urls), "application/xml; charset=utf-8");
}
