import pMap from "p-map";
import { languageOf, type SiteSettings } from "~/site/config.server";
import type { PageImages } from "~/images/images.server";
import { BlogUnavailableError } from "./errors.server";
import { renderArticleBody } from "./article-body.server";
import type { SwrCache } from "./cache.server";
import type { BlogSource } from "./source.server";
import type { ArticleView, BlogArticle, BlogEntry, BlogListPage } from "./types";
import { formatPublishedDate, isoDate } from "./dates";
import type { Translations } from "~/i18n/messages";
import { splitKeywords } from "./keywords";
import { minutesFor } from "./reading-time";
import { extractVideoId, videoEmbedUrl } from "./video";

/**
 * The one place pages get blog content from: a site's source and the caches in front of it, handed in by
 * the site's services (app/services), which also say where what a reader's request fetched is kept.
 */

export type BlogCaches = {
  lists: SwrCache<BlogListPage>;
  articles: SwrCache<ArticleView | null>;
  dates: SwrCache<{ iso?: string } | null>;
};

/**
 * Where the articles a reader's request fetched anyway are kept on the way (the site's catalogue), and the
 * dates kept there: called after the answer, never failing the page.
 */
export type BlogKeeper = {
  listed(domain: string, entries: BlogEntry[]): void;
  fetched(domain: string, slug: string, article: BlogArticle): void;
  /** The dates known for these articles, by slug; none when they cannot be had. */
  knownDates(domain: string, slugs: string[]): Promise<Map<string, string>>;
};

export type Blog = ReturnType<typeof createBlog>;

/** How many backend calls one sitemap part makes at a time. */
const SITEMAP_CONCURRENCY = 20;

export function createBlog(
  {
    source,
    caches: { lists, articles, dates },
    keeper,
    images,
  }: { source: BlogSource; caches: BlogCaches; keeper: BlogKeeper; images: PageImages },
  settings: SiteSettings,
) {
  const { key: site, label } = settings;
  /**
   * Images are added on every read, not cached with the content, so that a link found dead since is
   * left out of the pages rendered after that (app/images/dead-links.server.ts).
   */
  const withCardImages = (page: BlogListPage): BlogListPage => ({
    ...page,
    blogs: page.blogs.map((entry) => ({ ...entry, image: images.cardImage(entry.pinterestImageLink) })),
  });
  const listPage = (domain: string, page: number) =>
    lists
      .get(
        `${site}:list:${domain}:${page}`,
        async () => {
          const value = await source.listPage(domain, page);
          keeper.listed(domain, value.blogs);
          return { value, size: JSON.stringify(value).length };
        },
        label,
      )
      .then(withCardImages);
  const article = (domain: string, slug: string): Promise<ArticleView | null> =>
    articles
      .get(
        `${site}:article:${domain}:${slug}`,
        async () => {
          const found = await source.article(slug);
          if (!found) return { value: null, size: slug.length };
          keeper.fetched(domain, slug, found);
          // Worked out once per fetched version and cached with it, also when the body had to be shortened.
          const view = await toArticleView(slug, found, languageOf(settings));
          return { value: view, size: view.bodyHtml.length + 1024 };
        },
        label,
      )
      .then((view) => (view ? { ...view, image: images.articleImages(view.pinterestImageLink) } : view));
  /** An article's publication date alone (for the sitemap): no markdown rendered, little kept. */
  const articleDate = (domain: string, slug: string) =>
    dates.get(
      `${site}:date:${domain}:${slug}`,
      async () => {
        const found = await source.article(slug);
        return { value: found ? { iso: isoDate(found.date) } : null, size: 64 + slug.length };
      },
      label,
    );

  return {
    listPage,
    article,
    articleDate,

    /**
     * The newest list page's entries, for the articles suggested at the end of an article: the page the blog's
     * first page and the feed read too, so a warm site makes no backend call for them. None when the list
     * cannot be had, so that the article still shows, without suggestions.
     */
    newestEntries(domain: string): Promise<BlogEntry[]> {
      return listPage(domain, 1).then(
        (page) => page.blogs,
        (error: unknown) => {
          if (error instanceof BlogUnavailableError) console.warn(`Read next left out: ${error.message}`);
          else console.error("Read next left out:", error);
          return [];
        },
      );
    },

    /** How many articles the blog has, by the first list page (shared with the blog's first page). */
    async articleTotal(domain: string): Promise<number> {
      return (await listPage(domain, 1)).total;
    },

    /**
     * The articles on the given list pages with their dates, for one sitemap part: the pages at once, then
     * the details of each entry whose list entry has no date and whose date the catalogue does not know
     * (decision 017), all through the cache. An
     * article whose details fail keeps its place without a date; one the backend no longer has is left out.
     */
    async datedEntries(domain: string, listPages: number[]) {
      const pages = await Promise.all(listPages.map((page) => listPage(domain, page)));
      const entries = pages.flatMap((page) => page.blogs);
      // The catalogue knows the dates of the articles whose details it has: no backend call for those.
      const known = await keeper
        .knownDates(
          domain,
          entries.map((entry) => entry.slug),
        )
        .catch(() => new Map<string, string>());
      const dated = await pMap(
        entries,
        async (entry) => {
          if (entry.date) return { slug: entry.slug, date: isoDate(entry.date) };
          const catalogued = known.get(entry.slug);
          if (catalogued) return { slug: entry.slug, date: catalogued };
          const date = await articleDate(domain, entry.slug).catch(() => undefined);
          return date === null ? null : { slug: entry.slug, date: date?.iso };
        },
        { concurrency: SITEMAP_CONCURRENCY },
      );
      return dated.filter((entry) => entry !== null);
    },

    /** The newest articles with their details, for the RSS feed. An article that fails is left out. */
    async newestArticles(domain: string) {
      const { blogs } = await listPage(domain, 1);
      const found = await Promise.all(blogs.map((entry) => article(domain, entry.slug).catch(() => null)));
      return found.filter((view): view is ArticleView => view !== null);
    },
  };
}

async function toArticleView(
  slug: string,
  { blog: markdown, ...fields }: BlogArticle,
  language: { lang: string; messages: Translations },
): Promise<ArticleView> {
  const body = await renderArticleBody(markdown);
  const label = formatPublishedDate(fields.date, language.lang, language.messages);
  const iso = isoDate(fields.date);
  const videoId = extractVideoId(fields.youtubeShortsUrl);
  return {
    ...fields,
    slug,
    bodyHtml: body.html,
    ...(body.shortened ? { bodyShortened: body.shortened } : {}),
    published: label && iso ? { label, iso } : undefined,
    videoEmbedUrl: videoId ? videoEmbedUrl(videoId) : undefined,
    keywords: { shortTail: splitKeywords(fields.shortTailKeywords), longTail: splitKeywords(fields.longTailKeywords) },
    readingMinutes: minutesFor(body.words),
  };
}

/** A list entry as its card needs it: the keywords, which only choose what to read next, stay on the server. */
export function asCard({ keywords: _keywords, ...card }: BlogEntry): BlogEntry {
  return card;
}
