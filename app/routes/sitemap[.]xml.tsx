import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { absoluteUrl } from "~/crawlers/seo";
import {
  KEYWORDS_PART_PATH,
  PAGES_PART_PATH,
  articlePartCount,
  articlePartPath,
  sitemapIndexXml,
} from "~/crawlers/sitemap";

/** The sitemap index: the fixed pages' part, one part per slice of articles, the keyword pages'. One backend call. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const { fileResponse, unavailableFile } = crawlerFiles(services.httpCache);
  const { site } = services;
  const domain = services.domainOf(request);
  const origin = siteOrigin(request, site);
  try {
    const parts = articlePartCount(await services.blog.articleTotal(domain));
    const paths = [PAGES_PART_PATH, ...Array.from({ length: parts }, (_, index) => articlePartPath(index + 1))];
    // The keyword pages' part, when the catalogue knows keywords (an empty sitemap is not valid).
    const keywords = await Promise.resolve()
      .then(() => services.catalogue(domain).keywords())
      .catch(() => []);
    if (keywords.length > 0) paths.push(KEYWORDS_PART_PATH);
    return fileResponse(
      sitemapIndexXml(paths.map((path) => absoluteUrl(origin, path))),
      "application/xml; charset=utf-8",
    );
  } catch (error) {
    return unavailableFile("Sitemap", error);
  }
}
