import { getSettings } from "~/config.server";
import { imageResponse } from "~/crawler-files.server";
import { shareImagePng } from "~/share-image.server";

/** The site's default share image (Open Graph, Twitter card, structured data), drawn from its name. */
export async function loader() {
  return imageResponse(await shareImagePng(getSettings()), "image/png");
}
