import type { LoaderFunctionArgs } from "@remix-run/node";
import { getArticleTotal } from "~/blog/blog.server";
import { siteOf, siteOrigin } from "~/config.server";
import { fileResponse, unavailableFile } from "~/crawler-files.server";
import { absoluteUrl } from "~/lib/seo";
import { PAGES_PART_PATH, articlePartCount, articlePartPath, sitemapIndexXml } from "~/lib/sitemap";

/** The sitemap index: the fixed pages' part, then one part per slice of articles. One backend call. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const site = siteOf(context);
  const origin = siteOrigin(request, site);
  try {
    const parts = articlePartCount(await getArticleTotal(request, site));
    const paths = [PAGES_PART_PATH, ...Array.from({ length: parts }, (_, index) => articlePartPath(index + 1))];
    return fileResponse(sitemapIndexXml(paths.map((path) => absoluteUrl(origin, path))), "application/xml; charset=utf-8");
  } catch (error) {
    return unavailableFile("Sitemap", error);
  }
}
