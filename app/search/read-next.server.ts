import { asCard } from "~/blog/blog.server";
import type { ArticleView, BlogEntry } from "~/blog/types";
import type { ReadRate } from "~/counts/read-rate";
import { pickReadNext, READ_NEXT_COUNT } from "./read-next";
import type { ReadingFigures } from "~/counts/reading.server";
import type { Catalogue } from "./catalogue";
import { asBlogCard } from "./keyword-page.server";
import type { PageImages } from "~/images/images.server";

/** What read next chooses from, handed in by the site's services (app/services). */
export type ReadNextSources = {
  /** The site's catalogue; throws when it cannot be opened. */
  catalogue: () => Catalogue;
  /** The newest list page's entries; none when the list cannot be had. */
  newestEntries: () => Promise<BlogEntry[]>;
  /** The site's reading figures; never fails (none without counts). */
  reading: () => Promise<ReadingFigures>;
  /** A card's image addresses, for the articles found in the catalogue (the list's have theirs). */
  cardImage: PageImages["cardImage"];
};

/**
 * Up to three other articles for the end of an article, chosen among all the site's articles in the
 * catalogue by the rule of read-next.ts (shared keyword words first; among equals the more often
 * read to the end, by the site's counts, then the newest): no backend call. Until the catalogue's sync has
 * read the whole list (a cold start, or CATALOGUE_SYNC=off), the newest list page's, as readNextFor chooses
 * them, asked for at once so that the list call overlaps the article's own. Call it before fetching the
 * article; give it the article after.
 */
export function startReadNext(sources: ReadNextSources): (article: ArticleView) => Promise<BlogEntry[]> {
  const catalogue = Promise.resolve().then(() => sources.catalogue());
  catalogue.catch(() => {}); // told through `large`
  // Once the sync has read the whole list (the state "sweptAt"): before that the newest may be missing.
  const large = catalogue
    .then(
      async (found) =>
        (await found.getState("sweptAt")) !== undefined && (await found.count()).articles > READ_NEXT_COUNT,
    )
    .catch(() => false);
  const newest = large.then((enough) => (enough ? [] : sources.newestEntries()));
  // Never fails: without counts every article is read to the end as often.
  const figures = sources.reading();
  return async (article) => {
    const { readRate } = await figures;
    if (await large) {
      try {
        const keywords = [...article.keywords.shortTail, ...article.keywords.longTail];
        const related = await (
          await catalogue
        ).related({ slug: article.slug, title: article.metaTitle, keywords }, READ_NEXT_COUNT, readRate);
        return related.map((entry) => asBlogCard(entry, sources.cardImage));
      } catch (error) {
        console.error("Read next from the catalogue failed:", error);
        return readNextFor(article, await sources.newestEntries(), readRate);
      }
    }
    return readNextFor(article, await newest, readRate);
  };
}

/**
 * Up to three other articles for the end of `article`, from the newest list page, as cards (keywords are for
 * the choice, not the page). Chosen per request from the cached list rather than cached with the article,
 * whose copy may outlive the list's: it takes microseconds.
 */
function readNextFor(article: ArticleView, newest: BlogEntry[], readRate?: ReadRate): BlogEntry[] {
  const keywords = [...article.keywords.shortTail, ...article.keywords.longTail];
  return pickReadNext({ slug: article.slug, keywords }, newest, READ_NEXT_COUNT, readRate).map(asCard);
}
