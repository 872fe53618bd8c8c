import type { ArticleView } from "~/blog/types";
import { pageHref } from "~/blog/pagination";
import { readingDuration } from "~/blog/reading-time";
import {
  absoluteUrl,
  breadcrumbs,
  defaultShareImage,
  noindexMeta,
  pageMeta,
  siteOrganization,
  type SiteIdentity,
} from "./seo";

/** The metadata of each kind of page, built by its loader. */

export function homeMeta(site: SiteIdentity) {
  const { t } = site.language.translator;
  return pageMeta({
    site,
    path: "/",
    title: `${site.siteName} · ${t("hero.title", { product: site.product })}`,
    description: t("meta.homeDescription", { product: site.product }),
    jsonLd: [
      { "@type": "WebSite", name: site.siteName, url: absoluteUrl(site.origin, "/"), inLanguage: site.language.lang },
      siteOrganization(site),
    ],
  });
}

export function blogListMeta(site: SiteIdentity, page: number, pages: number) {
  const { t } = site.language.translator;
  return pageMeta({
    site,
    path: pageHref(page),
    title: blogTitle(site, page),
    description: t("meta.blogDescription", { product: site.product }),
    prev: page > 1 ? pageHref(page - 1) : undefined,
    next: page < pages ? pageHref(page + 1) : undefined,
    jsonLd: [breadcrumbs(site, blogTrail(site))],
  });
}

/** A blog list page's title: "Blog · {site}", "Blog, page 2 · {site}". */
export function blogTitle(site: SiteIdentity, page: number) {
  const { t } = site.language.translator;
  return `${page > 1 ? t("meta.blogPage", { page }) : t("nav.blog")} · ${site.siteName}`;
}

/** The breadcrumb trail to the blog list, in the site's words. */
function blogTrail(site: SiteIdentity) {
  const { t } = site.language.translator;
  return [
    { name: t("nav.home"), path: "/" },
    { name: t("nav.blog"), path: "/blog" },
  ];
}

/** The title of the pages that say an article or page is not there (never indexed). */
export function notFoundMeta(site: SiteIdentity, key: "article.notFoundTitle" | "meta.pageNotFound") {
  return noindexMeta(`${site.language.translator.t(key)} · ${site.siteName}`);
}

export function articleMeta(site: SiteIdentity, article: ArticleView) {
  const path = `/blog/${encodeURIComponent(article.slug)}`;
  const url = absoluteUrl(site.origin, path);
  const published = article.published?.iso;
  const image = article.pinterestImageLink
    ? { url: absoluteUrl(site.origin, article.pinterestImageLink), alt: article.metaTitle }
    : defaultShareImage(site);
  const organization = siteOrganization(site);
  const { t, plural } = site.language.translator;
  return pageMeta({
    site,
    path,
    title: article.metaTitle,
    description: article.metaDescription,
    type: "article",
    image,
    publishedTime: published,
    twitterData: [
      { label: t("article.readingTimeLabel"), data: plural("article.readingTime", article.readingMinutes) },
    ],
    jsonLd: [
      {
        "@type": "BlogPosting",
        headline: article.metaTitle,
        description: article.metaDescription,
        datePublished: published,
        // The backend keeps one date per article: it is also the last change known.
        dateModified: published,
        image: image.url,
        timeRequired: readingDuration(article.readingMinutes),
        url,
        mainEntityOfPage: url,
        author: organization,
        publisher: organization,
        inLanguage: site.language.lang,
      },
      breadcrumbs(site, [...blogTrail(site), { name: article.metaTitle, path }]),
    ],
  });
}
