import type { LoaderFunctionArgs } from "@remix-run/node";
import { imageResponse } from "~/crawlers/crawler-files.server";
import { logoPng } from "~/crawlers/share-image.server";
import { siteOf } from "~/site/config.server";

/** The site's logo, its tradition's mark: the publisher's logo in structured data, the feed's channel image. */
export async function loader({ context }: LoaderFunctionArgs) {
  return imageResponse(await logoPng(siteOf(context).tradition), "image/png");
}
