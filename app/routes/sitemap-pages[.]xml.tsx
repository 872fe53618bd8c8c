import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { pageHref } from "~/blog/pagination";
import { absoluteUrl } from "~/crawlers/seo";
import { listPageCount, urlsetXml } from "~/crawlers/sitemap";

/** The sitemap part of the fixed pages: home and every blog list page. One backend call. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const { fileResponse, unavailableFile } = crawlerFiles(services.httpCache);
  const { site } = services;
  const origin = siteOrigin(request, site);
  try {
    const pages = listPageCount(await services.blog.articleTotal(services.domainOf(request)));
    const paths = ["/", ...Array.from({ length: pages }, (_, index) => pageHref(index + 1))];
    return fileResponse(
      urlsetXml(paths.map((path) => ({ loc: absoluteUrl(origin, path) }))),
      "application/xml; charset=utf-8",
    );
  } catch (error) {
    return unavailableFile("Sitemap", error);
  }
}
