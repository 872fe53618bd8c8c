import { imageResponse } from "~/crawler-files.server";
import { logoPng } from "~/share-image.server";

/** The site's logo: the publisher's logo in structured data, the feed's channel image. */
export async function loader() {
  return imageResponse(await logoPng(), "image/png");
}
