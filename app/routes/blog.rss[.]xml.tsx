import type { LoaderFunctionArgs } from "@remix-run/node";
import { Feed } from "feed";
import type { ArticleView } from "~/blog/types";
import { languageOf, siteOrigin } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { crawlerFiles } from "~/crawlers/crawler-files.server";
import { imageEnclosure } from "~/crawlers/feed-images.server";
import { escapeMarkup } from "~/document/escape-markup";
import { absoluteUrl } from "~/crawlers/seo";
import { LOGO } from "~/crawlers/share-image";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const { fileResponse, unavailableFile } = crawlerFiles(services.httpCache);
  const { site } = services;
  const origin = siteOrigin(request, site);
  const { lang, translator } = languageOf(site);
  try {
    const articles = await services.blog.newestArticles(services.domainOf(request));
    // The date the article page shows (app/blog/dates.ts); an item without one is dated 1970, as RSS needs one.
    const dated = (article: ArticleView) => new Date(article.published?.iso ?? 0);
    const feed = new Feed({
      title: `${site.siteName} · ${translator.t("nav.blog")}`,
      description: translator.t("feed.description", { product: site.product }),
      id: absoluteUrl(origin, "/blog"),
      link: absoluteUrl(origin, "/blog"),
      language: lang,
      copyright: `© 2024 ${site.siteName}`,
      // The newest article's date rather than the time of the request: the same articles, the same bytes.
      updated: articles[0] ? dated(articles[0]) : new Date(0),
      image: absoluteUrl(origin, LOGO.path),
      feedLinks: { rss: absoluteUrl(origin, "/blog/rss.xml") },
    });
    for (const article of articles) {
      const link = absoluteUrl(origin, `/blog/${encodeURIComponent(article.slug)}`);
      const image = article.pinterestImageLink ? absoluteUrl(origin, article.pinterestImageLink) : undefined;
      feed.addItem({
        title: article.metaTitle,
        id: link,
        link,
        description: article.metaDescription,
        // The picture for readers, whether or not its size is known for an enclosure.
        content: image
          ? `<p><img src="${escapeMarkup(image)}" alt="${escapeMarkup(article.metaTitle)}"></p><p>${escapeMarkup(article.metaDescription)}</p>`
          : undefined,
        date: dated(article),
        image: imageEnclosure(article.pinterestImageLink, origin),
      });
    }
    return fileResponse(feed.rss2(), "application/rss+xml; charset=utf-8");
  } catch (error) {
    return unavailableFile("Feed", error);
  }
}
