import { setImmediate as nextTurn } from "node:timers/promises";
import pMap from "p-map";
import { getSettings, languageOf, type SiteSettings } from "~/site/config.server";
import { articleImages, cardImage } from "~/images/images.server";
import { domainFromHost } from "~/site/domain";
import { createSwrCache } from "./cache.server";
import { BlogUnavailableError } from "./errors.server";
import { createFileSource } from "./file-source.server";
import { createHttpSource } from "./http-source.server";
import { renderArticleBody } from "./article-body.server";
import { measuredSource } from "~/metrics/backend.server";
import type { BlogSource } from "./source.server";
import type { ArticleView, BlogArticle, BlogEntry, BlogListPage } from "./types";
import { formatPublishedDate, isoDate } from "./dates";
import type { Catalog } from "~/i18n/messages";
import { splitKeywords } from "./keywords";
import { pickReadNext } from "./read-next";
import { minutesFor } from "./reading-time";
import { extractVideoId, videoEmbedUrl } from "./video";
import type { Catalogue } from "~/search/catalogue";
import { CatalogueRefused, catalogueOf } from "~/search/catalogues.server";
import { catalogueArticle, catalogueEntry } from "~/search/sync.server";

/**
 * The one place pages get blog content from. Each site has its own source (its hosted backend when
 * BLOG_API_URL is set, its embedded articles otherwise), kept by site object: a site changed or removed
 * by a reload of the sites file is a new object or none, and its source goes with the old one. The
 * caches in front are the process's, one memory budget however many sites; entries are keyed by the
 * site's key, and a reload drops those of changed sites.
 */

type Blog = ReturnType<typeof createBlog>;
const blogs = new WeakMap<SiteSettings, Blog>();
let caches: ReturnType<typeof createCaches> | undefined;

function createCaches() {
  const { cache } = getSettings();
  const timing = {
    freshMs: cache.freshSeconds * 1000,
    staleWhileRevalidateMs: Math.min(cache.staleSeconds, 600) * 1000,
    staleIfErrorMs: cache.staleSeconds * 1000,
  };
  return {
    lists: createSwrCache<BlogListPage>(timing),
    // An article whose reply does not fit is asked for again once a fresh period, not at every request.
    articles: createSwrCache<ArticleView | null>({ ...timing, keepFailure: (error) => error instanceof BlogUnavailableError && error.ofContent }),
    dates: createSwrCache<{ iso?: string } | null>(timing),
  };
}

function blogOf(site: SiteSettings): Blog {
  let blog = blogs.get(site);
  if (blog) return blog;
  const source = site.blogApi
    ? measuredSource(site.label, createHttpSource({ baseUrl: site.blogApi.url, token: site.blogApi.token, timeoutMs: site.blogApi.timeoutMs }))
    : createFileSource(site.contentDir);
  // With several sites, the log says whose backend failed.
  blog = createBlog(site.hosts.length > 0 ? namedSource(site.label, source) : source, (caches ??= createCaches()), site);
  blogs.set(site, blog);
  return blog;
}

function namedSource(name: string, source: BlogSource): BlogSource {
  const named = (error: unknown) => {
    throw error instanceof BlogUnavailableError ? new BlogUnavailableError(`${name}: ${error.message}`, { cause: error, kind: error.kind, ofContent: error.ofContent }) : error;
  };
  return {
    listPage: (domain, page) => source.listPage(domain, page).catch(named),
    article: (slug) => source.article(slug).catch(named),
  };
}

/** Drops the cached content of sites that a reload changed or removed, by their keys. */
export function forgetSiteContent(siteKeys: string[]) {
  const prefixes = siteKeys.map((key) => `${key}:`);
  for (const cache of Object.values(caches ?? {})) cache.forget(prefixes);
}

function createBlog(source: BlogSource, { lists, articles, dates }: ReturnType<typeof createCaches>, settings: SiteSettings) {
  const { key: site, label } = settings;
  /** What a reader's request fetched anyway goes into the catalogue on the way (app/search), after the page's turn. */
  const store = (domain: string, write: (catalogue: Catalogue) => Promise<unknown>) => {
    nextTurn()
      .then(() => write(catalogueOf(settings, domain, source)))
      .catch((error: unknown) => {
        if (!(error instanceof CatalogueRefused)) console.error("Catalogue not updated:", error);
      });
  };
  return {
    catalogue: (domain: string) => catalogueOf(settings, domain, source),
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

async function toArticleView(slug: string, { blog: markdown, ...fields }: BlogArticle, language: { lang: string; messages: Catalog }): Promise<ArticleView> {
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

/** The site domain for backend queries and cache keys: the site's SITE_DOMAIN, else the request's host. */
export function siteDomain(request: Request, site: SiteSettings): string {
  return site.siteDomain ?? domainFromHost(new URL(request.url).host) ?? "localhost";
}

export function getBlogListPage(request: Request, site: SiteSettings, page: number): Promise<BlogListPage> {
  return blogOf(site).listPage(siteDomain(request, site), page);
}

/**
 * Opens the site's catalogue and starts its sync as the server starts, when the site's domain does not
 * depend on the request (embedded articles, or SITE_DOMAIN set); otherwise the first request does.
 */
export function startCatalogue(site: SiteSettings) {
  if (site.blogApi && !site.siteDomain) return;
  try {
    blogOf(site).catalogue(site.siteDomain ?? "localhost");
  } catch (error) {
    console.error(`Catalogue of ${site.label} not opened:`, error);
  }
}

/** The site's catalogue: every article, searchable (app/search). Throws when its file cannot be opened. */
export function getCatalogue(request: Request, site: SiteSettings): Catalogue {
  return blogOf(site).catalogue(siteDomain(request, site));
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
export function readNextFor(article: ArticleView, newest: BlogEntry[]): BlogEntry[] {
  const keywords = [...article.keywords.shortTail, ...article.keywords.longTail];
  return pickReadNext({ slug: article.slug, keywords }, newest).map(asCard);
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
