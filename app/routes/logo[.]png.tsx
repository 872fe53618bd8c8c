import type { LoaderFunctionArgs } from "@remix-run/node";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { servicesOf } from "~/services/context.server";
import { logoPng } from "~/crawlers/share-image.server";
import { siteOf } from "~/site/config.server";

/** The site's logo, its tradition's mark: the publisher's logo in structured data, the feed's channel image. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { imageResponse } = crawlerFiles(servicesOf(context).httpCache);
  return imageResponse(await logoPng(siteOf(context).tradition), "image/png");
}
