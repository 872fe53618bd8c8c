import type { LoaderFunctionArgs } from "@remix-run/node";
import { siteOf } from "~/config.server";
import { imageResponse } from "~/crawler-files.server";
import { shareImagePng } from "~/share-image.server";

/** The site's default share image (Open Graph, Twitter card, structured data), drawn from its name. */
export async function loader({ context }: LoaderFunctionArgs) {
  return imageResponse(await shareImagePng(siteOf(context)), "image/png");
}
