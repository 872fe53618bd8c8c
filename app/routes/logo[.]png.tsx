import { imageResponse } from "~/crawlers/crawler-files.server";
import { logoPng } from "~/crawlers/share-image.server";

/** The site's logo: the publisher's logo in structured data, the feed's channel image. */
export async function loader() {
  return imageResponse(await logoPng(), "image/png");
}
