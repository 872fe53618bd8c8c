import type { ArticleView } from "~/blog/types";
import { pageHref } from "~/lib/pagination";
import { readingDuration, readingTimeLabel } from "~/lib/reading-time";
import { absoluteUrl, breadcrumbs, defaultShareImage, pageMeta, siteOrganization, type SiteIdentity } from "~/lib/seo";

/** The metadata of each kind of page, built by its loader. */

export function homeMeta(site: SiteIdentity) {
  return pageMeta({
    site,
    path: "/",
    title: `${site.siteName} · Discover the Ancient Wisdom of ${site.product} Buddhism`,
    description: `Meditation guidance, teachings and community for anyone curious about ${site.product} Buddhism: start sitting, read the blog, and get in touch.`,
    jsonLd: [{ "@type": "WebSite", name: site.siteName, url: absoluteUrl(site.origin, "/") }, siteOrganization(site)],
  });
}

export function blogListMeta(site: SiteIdentity, page: number, pages: number) {
  return pageMeta({
    site,
    path: pageHref(page),
    title: page > 1 ? `Blog, page ${page} · ${site.siteName}` : `Blog · ${site.siteName}`,
    description: `Articles and insights on ${site.product} Buddhist practice, meditation and daily life.`,
    prev: page > 1 ? pageHref(page - 1) : undefined,
    next: page < pages ? pageHref(page + 1) : undefined,
    jsonLd: [breadcrumbs(site, [{ name: "Home", path: "/" }, { name: "Blog", path: "/blog" }])],
  });
}

export function articleMeta(site: SiteIdentity, article: ArticleView) {
  const path = `/blog/${encodeURIComponent(article.slug)}`;
  const url = absoluteUrl(site.origin, path);
  const published = article.published?.iso;
  const image = article.pinterestImageLink
    ? { url: absoluteUrl(site.origin, article.pinterestImageLink), alt: article.metaTitle }
    : defaultShareImage(site);
  const organization = siteOrganization(site);
  return pageMeta({
    site,
    path,
    title: article.metaTitle,
    description: article.metaDescription,
    type: "article",
    image,
    publishedTime: published,
    twitterData: [{ label: "Reading time", data: readingTimeLabel(article.readingMinutes) }],
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
      },
      breadcrumbs(site, [
        { name: "Home", path: "/" },
        { name: "Blog", path: "/blog" },
        { name: article.metaTitle, path },
      ]),
    ],
  });
}
