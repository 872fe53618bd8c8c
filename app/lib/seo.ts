import type { MetaDescriptor } from "@remix-run/react";

/**
 * Tags for search engines and social previews. Loaders build them on the server (where the settings
 * and the request's origin are known) and `meta` exports return them, so none of this reaches the
 * browser bundle.
 */

/** Who the site is and where it lives. */
export type SiteIdentity = { product: string; siteName: string; origin: string };

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin).toString();
}

type PageSeo = {
  site: SiteIdentity;
  /** Path (with canonical query, if any) of this page. */
  path: string;
  title: string;
  description: string;
  type?: "website" | "article";
  image?: string;
  publishedTime?: string;
  prev?: string;
  next?: string;
  jsonLd?: Record<string, unknown>[];
};

/** Title, description, canonical URL, Open Graph, Twitter card, prev/next and JSON-LD for one page. */
export function pageMeta({ site, path, title, description, type = "website", image, publishedTime, prev, next, jsonLd = [] }: PageSeo): MetaDescriptor[] {
  const url = absoluteUrl(site.origin, path);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { property: "og:site_name", content: site.siteName },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (image) {
    const imageUrl = absoluteUrl(site.origin, image);
    tags.push({ property: "og:image", content: imageUrl }, { name: "twitter:image", content: imageUrl });
  }
  if (publishedTime) tags.push({ property: "article:published_time", content: publishedTime });
  if (prev) tags.push({ tagName: "link", rel: "prev", href: absoluteUrl(site.origin, prev) });
  if (next) tags.push({ tagName: "link", rel: "next", href: absoluteUrl(site.origin, next) });
  for (const data of jsonLd) tags.push({ "script:ld+json": { "@context": "https://schema.org", ...data } });
  return tags;
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
