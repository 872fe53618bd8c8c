import type { LoaderFunctionArgs } from "@remix-run/node";
import { languageOf, siteOf } from "~/site/config.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { servicesOf } from "~/services/context.server";
import { shareImagePng } from "~/crawlers/share-image.server";

/** The site's default share image (Open Graph, Twitter card, structured data), drawn from its name. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { imageResponse } = crawlerFiles(servicesOf(context).httpCache);
  const site = siteOf(context);
  return imageResponse(await shareImagePng({ ...site, language: languageOf(site) }), "image/png");
}
