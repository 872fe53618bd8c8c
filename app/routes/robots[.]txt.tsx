import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOf, siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { absoluteUrl } from "~/crawlers/seo";
import { SITEMAP_INDEX_PATH } from "~/crawlers/sitemap";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const body = `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(siteOrigin(request, siteOf(context)), SITEMAP_INDEX_PATH)}\n`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": servicesOf(context).httpCache.control("file"),
    },
  });
}
