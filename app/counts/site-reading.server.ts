import { getSettings, type SiteSettings } from "~/site/config.server";
import { servicesOf, siteDomain } from "~/site/services.server";
import { NONE, type ReadingFigures } from "./reading.server";

/**
 * The reading figures of the site a request is for (app/counts/reading.server.ts); none with ANALYTICS=off
 * or when its counts cannot be opened: the pages that use them then show as on a new site.
 */
export async function siteReading(request: Request, site: SiteSettings): Promise<ReadingFigures> {
  if (!getSettings().analytics) return NONE;
  try {
    return await servicesOf(site).reading(siteDomain(request, site))();
  } catch {
    return NONE;
  }
}
