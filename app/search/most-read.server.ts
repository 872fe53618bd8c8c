import { MOST_READ_COUNT, type ReadingFigures } from "~/counts/reading.server";
import type { Catalogue } from "./catalogue";

/** Fewer than this many articles make no list: "most read" of one or two says little. */
export const MOST_READ_MIN_LIST = 3;

export type MostRead = { slug: string; title: string }[];

/**
 * The blog's "Most read" list (docs/decisions/052): the articles most viewed over the last days that the
 * catalogue still has, from the site's reading figures; empty, and so not shown, on a site with too few
 * counts yet, with ANALYTICS=off (no figures), or when the counts or the catalogue cannot be read.
 */
export async function mostReadOf(
  reading: () => Promise<ReadingFigures>,
  catalogue: () => Catalogue,
): Promise<MostRead> {
  try {
    const { mostRead } = await reading();
    if (mostRead.length < MOST_READ_MIN_LIST) return [];
    const entries = await catalogue().entries(mostRead.map((article) => article.slug));
    const list = entries.slice(0, MOST_READ_COUNT).map(({ slug, title }) => ({ slug, title }));
    return list.length >= MOST_READ_MIN_LIST ? list : [];
  } catch (error) {
    console.error(`Most read: ${(error as Error).message}`);
    return [];
  }
}
