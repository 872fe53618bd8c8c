import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteIdentity, siteOf } from "~/site/config.server";
import { openSearchXml } from "~/search/opensearch";
import { servicesOf } from "~/services/context.server";

/** The OpenSearch description that lets browsers add the site's search (linked from every page's head). */
export function loader({ request, context }: LoaderFunctionArgs) {
  const site = siteIdentity(request, siteOf(context));
  return new Response(openSearchXml(site), {
    headers: {
      "Content-Type": "application/opensearchdescription+xml; charset=utf-8",
      "Cache-Control": servicesOf(context).httpCache.control("file"),
    },
  });
}
