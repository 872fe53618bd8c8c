import type { MetaDescriptor } from "@remix-run/react";
import type { Translator } from "~/i18n/messages";
import { LOGO, SHARE_IMAGE } from "./share-image";

/**
 * Tags for search engines and social previews. Loaders build them on the server (where the settings
 * and the request's origin are known) and `meta` exports return them, so none of this reaches the
 * browser bundle.
 */

/** Who the site is, where it lives and the language it speaks. */
export type SiteIdentity = {
  product: string;
  siteName: string;
  origin: string;
  language: { lang: string; ogLocale: string; translator: Translator };
};

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin).toString();
}

/** The picture a shared link shows, with its text for those who cannot see it. */
export type ShareImage = { url: string; alt: string; width?: number; height?: number; type?: string };

/** The site's own share image (its name and the ensō), for pages without a picture of their own. */
export function defaultShareImage(site: SiteIdentity): ShareImage {
  return {
    url: absoluteUrl(site.origin, SHARE_IMAGE.path),
    alt: site.language.translator.t("meta.shareImageAlt", { site: site.siteName }),
    width: SHARE_IMAGE.width,
    height: SHARE_IMAGE.height,
    type: "image/png",
  };
}

/** The site as an organization: the author of its articles (the backend names none) and their publisher. */
export function siteOrganization(site: SiteIdentity): Record<string, unknown> {
  return {
    "@type": "Organization",
    name: site.siteName,
    url: absoluteUrl(site.origin, "/"),
    logo: { "@type": "ImageObject", url: absoluteUrl(site.origin, LOGO.path), width: LOGO.width, height: LOGO.height },
  };
}

type PageSeo = {
  site: SiteIdentity;
  /** Path (with canonical query, if any) of this page. */
  path: string;
  title: string;
  description: string;
  type?: "website" | "article";
  /** The page's own picture; the site's share image when there is none. */
  image?: ShareImage;
  publishedTime?: string;
  /** Facts a Twitter (X) card shows under its text, at most two: "Reading time", "5 min read". */
  twitterData?: { label: string; data: string }[];
  prev?: string;
  next?: string;
  jsonLd?: Record<string, unknown>[];
};

/** Title, description, canonical URL, Open Graph, Twitter card, prev/next and JSON-LD for one page. */
export function pageMeta({
  site,
  path,
  title,
  description,
  type = "website",
  image,
  publishedTime,
  twitterData = [],
  prev,
  next,
  jsonLd = [],
}: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(site.origin, path);
  const picture = image ?? defaultShareImage(site);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { property: "og:site_name", content: site.siteName },
    { property: "og:locale", content: site.language.ogLocale },
    { property: "og:image", content: picture.url },
    { property: "og:image:alt", content: picture.alt },
    ...(picture.type ? [{ property: "og:image:type", content: picture.type }] : []),
    ...(picture.width && picture.height
      ? [
          { property: "og:image:width", content: String(picture.width) },
          { property: "og:image:height", content: String(picture.height) },
        ]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: picture.url },
    { name: "twitter:image:alt", content: picture.alt },
    ...twitterData.slice(0, 2).flatMap(({ label, data }, index) => [
      { name: `twitter:label${index + 1}`, content: label },
      { name: `twitter:data${index + 1}`, content: data },
    ]),
  ];
  if (publishedTime) tags.push({ property: "article:published_time", content: publishedTime });
  if (prev) tags.push({ tagName: "link", rel: "prev", href: absoluteUrl(site.origin, prev) });
  if (next) tags.push({ tagName: "link", rel: "next", href: absoluteUrl(site.origin, next) });
  for (const data of jsonLd) tags.push({ "script:ld+json": { "@context": "https://schema.org", ...data } });
  return tags;
}

/** The canonical address among a page's tags (pageMeta puts it there), if it has one. */
export function canonicalHref(tags: readonly MetaDescriptor[]): string | undefined {
  for (const tag of tags) {
    if ("tagName" in tag && tag.tagName === "link" && tag.rel === "canonical" && typeof tag.href === "string")
      return tag.href;
  }
  return undefined;
}

/** For error and not-found pages: a title, and no indexing. */
export function noindexMeta(title: string): MetaDescriptor[] {
  return [{ title }, { name: "robots", content: "noindex" }];
}

export function breadcrumbs(site: SiteIdentity, trail: { name: string; path: string }[]): Record<string, unknown> {
  return {
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(site.origin, crumb.path),
    })),
  };
}
