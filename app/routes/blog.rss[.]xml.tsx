import type { LoaderFunctionArgs } from "@remix-run/node";
import { Feed } from "feed";
import { getNewestArticles } from "~/blog/blog.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { getSettings, siteOrigin } from "~/config.server";
import { cacheControl } from "~/lib/http-cache.server";
import { absoluteUrl } from "~/lib/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const settings = getSettings();
  const origin = siteOrigin(request);
  try {
    const articles = await getNewestArticles(request);
    const feed = new Feed({
      title: `${settings.siteName} · Blog`,
      description: `Articles and insights on ${settings.product} Buddhist practice.`,
      id: absoluteUrl(origin, "/blog"),
      link: absoluteUrl(origin, "/blog"),
      language: "en",
      copyright: `© 2024 ${settings.siteName}`,
      feedLinks: { rss: absoluteUrl(origin, "/blog/rss.xml") },
    });
    for (const article of articles) {
      const link = absoluteUrl(origin, `/blog/${encodeURIComponent(article.slug)}`);
      const time = Date.parse(article.date);
      feed.addItem({
        title: article.metaTitle,
        id: link,
        link,
        description: article.metaDescription,
        date: Number.isNaN(time) ? new Date(0) : new Date(time),
        image: article.pinterestImageLink ? absoluteUrl(origin, article.pinterestImageLink) : undefined,
      });
    }
    return new Response(feed.rss2(), {
      headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": cacheControl("file") },
    });
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`RSS feed: ${error.message}`);
    return new Response("Feed temporarily unavailable\n", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": cacheControl("unavailable"), "Retry-After": "60" },
    });
  }
}
