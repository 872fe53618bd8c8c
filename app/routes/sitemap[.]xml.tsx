import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAllEntries } from "~/blog/blog.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { siteOrigin } from "~/config.server";
import { cacheControl } from "~/lib/http-cache.server";
import { pageHref } from "~/lib/pagination";
import { absoluteUrl } from "~/lib/seo";
import { sitemapXml } from "~/lib/xml";

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = siteOrigin(request);
  try {
    const { entries, pages } = await getAllEntries(request);
    const paths = [
      "/",
      ...Array.from({ length: pages }, (_, index) => pageHref(index + 1)),
      ...entries.map((entry) => `/blog/${encodeURIComponent(entry.slug)}`),
    ];
    return new Response(sitemapXml(paths.map((path) => absoluteUrl(origin, path))), {
      headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": cacheControl("file") },
    });
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`Sitemap: ${error.message}`);
    return new Response("Sitemap temporarily unavailable\n", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": cacheControl("unavailable"), "Retry-After": "60" },
    });
  }
}
