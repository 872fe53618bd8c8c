import { setImmediate as nextTurn } from "node:timers/promises";
import pMap from "p-map";
import { languageOf, type SiteSettings } from "~/site/config.server";
import { articleImages, cardImage } from "~/images/images.server";
import { getCatalogue, servicesOf, siteDomain, type SiteServices } from "~/site/services.server";
import { BlogUnavailableError } from "./errors.server";
import { renderArticleBody } from "./article-body.server";
import type { ArticleView, BlogArticle, BlogEntry, BlogListPage } from "./types";
import { formatPublishedDate, isoDate } from "./dates";
import type { Translations } from "~/i18n/messages";
import { splitKeywords } from "./keywords";
import { pickReadNext, READ_NEXT_COUNT, type ReadRate } from "./read-next";
import { minutesFor } from "./reading-time";
import { extractVideoId, videoEmbedUrl } from "./video";
import type { Catalogue } from "~/search/catalogue";
import { CatalogueRefused } from "~/search/catalogues.server";
import { catalogueArticle, catalogueEntry } from "~/search/sync.server";

/**
 * The one place pages get blog content from: each site's source and the caches in front of it, as
 * app/site/services.server.ts wires them.
 */

type Blog = ReturnType<typeof createBlog>;
const blogs = new WeakMap<SiteSettings, Blog>();

function blogOf(site: SiteSettings): Blog {
  let blog = blogs.get(site);
  if (!blog) blogs.set(site, (blog = createBlog(servicesOf(site), site)));
  return blog;
}

function createBlog({ source, caches: { lists, articles, dates }, catalogue }: SiteServices, settings: SiteSettings) {
  const { key: site, label } = settings;
  /** What a reader's request fetched anyway goes into the catalogue on the way (app/search), after the page's turn. */
  const store = (domain: string, write: (catalogue: Catalogue) => Promise<unknown>) => {
    nextTurn()
      .then(() => write(catalogue(domain)))
      .catch((error: unknown) => {
        if (!(error instanceof CatalogueRefused)) console.error("Catalogue not updated:", error);
      });
  };
  return {
    listPage(domain: string, page: number) {
      return lists
        .get(`${site}:list:${domain}:${page}`, async () => {
          const value = await source.listPage(domain, page);
          store(domain, (catalogue) => catalogue.putEntries(value.blogs.map(catalogueEntry)));
          return { value, size: JSON.stringify(value).length };
        }, label)
        .then(withCardImages);
    },
    article(domain: string, slug: string) {
      return articles.get(`${site}:article:${domain}:${slug}`, async () => {
        const article = await source.article(slug);
        if (!article) return { value: null, size: slug.length };
        store(domain, (catalogue) => catalogue.putArticle(catalogueArticle(slug, article)));
        // Worked out once per fetched version and cached with it, also when the body had to be shortened.
        const view = await toArticleView(slug, article, languageOf(settings));
        return { value: view, size: view.bodyHtml.length + 1024 };
      }, label).then((view) => (view ? { ...view, image: articleImages(view.pinterestImageLink) } : view));
    },
    /** An article's publication date alone (for the sitemap): no markdown rendered, little kept. */
    articleDate(domain: string, slug: string) {
      return dates.get(`${site}:date:${domain}:${slug}`, async () => {
        const article = await source.article(slug);
        return { value: article ? { iso: isoDate(article.date) } : null, size: 64 + slug.length };
      }, label);
    },
  };
}

/**
 * Images are added on every read, not cached with the content, so that a link found dead since is
 * left out of the pages rendered after that (app/images/dead-links.server.ts).
 */
function withCardImages(page: BlogListPage): BlogListPage {
  return { ...page, blogs: page.blogs.map((entry) => ({ ...entry, image: cardImage(entry.pinterestImageLink) })) };
}

async function toArticleView(slug: string, { blog: markdown, ...fields }: BlogArticle, language: { lang: string; messages: Translations }): Promise<ArticleView> {
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

export function getBlogListPage(request: Request, site: SiteSettings, page: number): Promise<BlogListPage> {
  return blogOf(site).listPage(siteDomain(request, site), page);
}

export function getArticle(request: Request, site: SiteSettings, slug: string): Promise<ArticleView | null> {
  return blogOf(site).article(siteDomain(request, site), slug);
}

/**
 * The newest list page's entries, for the articles suggested at the end of an article: the page the blog's
 * first page and the feed read too, so a warm site makes no backend call for them. None when the list
 * cannot be had, so that the article still shows, without suggestions.
 */
export function getNewestEntries(request: Request, site: SiteSettings): Promise<BlogEntry[]> {
  return getBlogListPage(request, site, 1).then(
    (page) => page.blogs,
    (error: unknown) => {
      if (error instanceof BlogUnavailableError) console.warn(`Read next left out: ${error.message}`);
      else console.error("Read next left out:", error);
      return [];
    },
  );
}

/**
 * Up to three other articles for the end of `article`, as cards (keywords are for the choice, not the
 * page). Chosen per request from the cached list rather than cached with the article, whose copy may
 * outlive the list's: it takes microseconds.
 */
export function readNextFor(article: ArticleView, newest: BlogEntry[], readRate?: ReadRate): BlogEntry[] {
  const keywords = [...article.keywords.shortTail, ...article.keywords.longTail];
  return pickReadNext({ slug: article.slug, keywords }, newest, READ_NEXT_COUNT, readRate).map(asCard);
}

/** A list entry as its card needs it: the keywords, which only choose what to read next, stay on the server. */
export function asCard({ keywords: _keywords, ...card }: BlogEntry): BlogEntry {
  return card;
}

/** How many backend calls one sitemap part makes at a time. */
const SITEMAP_CONCURRENCY = 20;

/** How many articles the blog has, by the first list page (shared with the blog's first page). */
export async function getArticleTotal(request: Request, site: SiteSettings): Promise<number> {
  return (await getBlogListPage(request, site, 1)).total;
}

/**
 * The articles on the given list pages with their dates, for one sitemap part: the pages at once, then
 * the details of each entry whose list entry has no date and whose date the catalogue does not know
 * (decision 017), all through the cache. An
 * article whose details fail keeps its place without a date; one the backend no longer has is left out.
 */
export async function getDatedEntries(request: Request, site: SiteSettings, listPages: number[]) {
  const lists = await Promise.all(listPages.map((page) => getBlogListPage(request, site, page)));
  const entries = lists.flatMap((list) => list.blogs);
  // The catalogue knows the dates of the articles whose details it has: no backend call for those.
  const known = await Promise.resolve()
    .then(() => getCatalogue(request, site).dates(entries.map((entry) => entry.slug)))
    .catch(() => new Map<string, string>());
  const dated = await pMap(
    entries,
    async (entry) => {
      if (entry.date) return { slug: entry.slug, date: isoDate(entry.date) };
      const catalogued = known.get(entry.slug);
      if (catalogued) return { slug: entry.slug, date: catalogued };
      const date = await blogOf(site)
        .articleDate(siteDomain(request, site), entry.slug)
        .catch(() => undefined);
      return date === null ? null : { slug: entry.slug, date: date?.iso };
    },
    { concurrency: SITEMAP_CONCURRENCY },
  );
  return dated.filter((entry) => entry !== null);
}

/** The newest articles with their details, for the RSS feed. An article that fails is left out. */
export async function getNewestArticles(request: Request, site: SiteSettings) {
  const { blogs } = await getBlogListPage(request, site, 1);
  const articles = await Promise.all(blogs.map((entry) => getArticle(request, site, entry.slug).catch(() => null)));
  return articles.filter((article): article is ArticleView => article !== null);
}
