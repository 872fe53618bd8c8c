import { getNewestEntries, readNextFor } from "~/blog/blog.server";
import { siteReading } from "~/counts/site-reading.server";
import { getCatalogue } from "~/site/services.server";
import type { ArticleView, BlogEntry } from "~/blog/types";
import type { SiteSettings } from "~/site/config.server";
import { READ_NEXT_COUNT } from "~/blog/read-next";
import { asBlogCard } from "./keyword-page.server";

/**
 * Up to three other articles for the end of an article, chosen among all the site's articles in the
 * catalogue by the rule of app/blog/read-next.ts (shared keyword words first; among equals the more often
 * read to the end, by the site's counts, then the newest): no backend call. Until the catalogue's sync has read the whole list (a cold start, or CATALOG_SYNC=off),
 * the newest list page's, as readNextFor chooses them, asked for at once so that the list call overlaps
 * the article's own. Call it before fetching the article; give it the article after.
 */
export function startReadNext(request: Request, site: SiteSettings): (article: ArticleView) => Promise<BlogEntry[]> {
  const catalogue = Promise.resolve().then(() => getCatalogue(request, site));
  catalogue.catch(() => {}); // told through `large`
  // Once the sync has read the whole list (the state "sweptAt"): before that the newest may be missing.
  const large = catalogue.then(async (found) => (await found.getState("sweptAt")) !== undefined && (await found.count()).articles > READ_NEXT_COUNT).catch(() => false);
  const newest = large.then((enough) => (enough ? [] : getNewestEntries(request, site)));
  // Never fails: without counts every article is read to the end as often.
  const figures = siteReading(request, site);
  return async (article) => {
    const { readRate } = await figures;
    if (await large) {
      try {
        const keywords = [...article.keywords.shortTail, ...article.keywords.longTail];
        const related = await (await catalogue).related({ slug: article.slug, title: article.metaTitle, keywords }, READ_NEXT_COUNT, readRate);
        return related.map(asBlogCard);
      } catch (error) {
        console.error("Read next from the catalogue failed:", error);
        return readNextFor(article, await getNewestEntries(request, site), readRate);
      }
    }
    return readNextFor(article, await newest, readRate);
  };
}
