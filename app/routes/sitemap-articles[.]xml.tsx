import type { LoaderFunctionArgs } from "@remix-run/node";
import { getArticleTotal, getDatedEntries } from "~/blog/blog.server";
import { siteOf, siteOrigin } from "~/site/config.server";
import { fileResponse, missingFile, unavailableFile } from "~/crawlers/crawler-files.server";
import { absoluteUrl } from "~/crawlers/seo";
import { articlePartCount, listPagesOfPart, parsePartParam, urlsetXml } from "~/crawlers/sitemap";

/** One sitemap part of articles (`?part=N`), each with its date as lastmod. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const site = siteOf(context);
  const origin = siteOrigin(request, site);
  const part = parsePartParam(new URL(request.url).searchParams);
  if (part === undefined) return missingFile("sitemap part");
  try {
    // The total first (usually cached): a part number past the end costs no more backend calls.
    if (part > articlePartCount(await getArticleTotal(request, site))) return missingFile("sitemap part");
    const entries = await getDatedEntries(request, site, listPagesOfPart(part));
    if (entries.length === 0) return missingFile("sitemap part");
    const urls = entries.map((entry) => ({ loc: absoluteUrl(origin, `/blog/${encodeURIComponent(entry.slug)}`), lastmod: entry.date }));
    return fileResponse(urlsetXml(urls), "application/xml; charset=utf-8");
  } catch (error) {
    return unavailableFile("Sitemap", error);
  }
}
