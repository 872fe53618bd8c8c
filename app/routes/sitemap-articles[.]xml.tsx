import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { absoluteUrl } from "~/crawlers/seo";
import { articlePartCount, listPagesOfPart, parsePartParam, urlsetXml } from "~/crawlers/sitemap";

/** One sitemap part of articles (`?part=N`), each with its date as lastmod. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const { fileResponse, missingFile, unavailableFile } = crawlerFiles(services.httpCache);
  const { site } = services;
  const domain = services.domainOf(request);
  const origin = siteOrigin(request, site);
  const part = parsePartParam(new URL(request.url).searchParams);
  if (part === undefined) return missingFile("sitemap part");
  try {
    // The total first (usually cached): a part number past the end costs no more backend calls.
    if (part > articlePartCount(await services.blog.articleTotal(domain))) return missingFile("sitemap part");
    const entries = await services.blog.datedEntries(domain, listPagesOfPart(part));
    if (entries.length === 0) return missingFile("sitemap part");
    const urls = entries.map((entry) => ({
      loc: absoluteUrl(origin, `/blog/${encodeURIComponent(entry.slug)}`),
      lastmod: entry.date,
    }));
    return fileResponse(urlsetXml(urls), "application/xml; charset=utf-8");
  } catch (error) {
    return unavailableFile("Sitemap", error);
  }
}
