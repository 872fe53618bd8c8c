import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { getArticle } from "~/blog/blog.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import {
  ArticleBody,
  ArticleHeader,
  ArticleNotFound,
  BackToBlog,
  HeroImage,
  KeywordChips,
  VideoShort,
} from "~/components/blog/ArticleParts";
import { messages } from "~/lib/messages";
import { isoDate } from "~/lib/dates";
import { cacheHeaders } from "~/lib/http-cache.server";
import { loaderHeaders } from "~/lib/route-headers";
import { absoluteUrl, breadcrumbs, noindexMeta, pageMeta, siteIdentity } from "~/lib/seo";

const MAX_SLUG_LENGTH = 300;

export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const missing = () => data({ state: "missing" as const }, { status: 404, headers: cacheHeaders("missing") });
  if (!slug.trim() || slug.length > MAX_SLUG_LENGTH) return missing();
  try {
    const article = await getArticle(request, slug);
    if (!article) return missing();
    return data({ state: "ok" as const, article }, { headers: cacheHeaders("page") });
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`Article ${JSON.stringify(slug)}: ${error.message}`);
    return data(
      { state: "error" as const },
      { status: 503, headers: { "Retry-After": "60", ...cacheHeaders("unavailable") } },
    );
  }
}

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => {
  const site = siteIdentity(matches);
  if (loaded?.state !== "ok") return noindexMeta(`Article Not Found · ${site.siteName}`);
  const { article } = loaded;
  const path = `/blog/${encodeURIComponent(article.slug)}`;
  const published = isoDate(article.date);
  return pageMeta({
    site,
    path,
    title: article.metaTitle,
    description: article.metaDescription,
    type: "article",
    image: article.pinterestImageLink,
    publishedTime: published,
    jsonLd: [
      {
        "@type": "BlogPosting",
        headline: article.metaTitle,
        description: article.metaDescription,
        datePublished: published,
        image: article.pinterestImageLink ? absoluteUrl(site.origin, article.pinterestImageLink) : undefined,
        url: absoluteUrl(site.origin, path),
        mainEntityOfPage: absoluteUrl(site.origin, path),
        publisher: { "@type": "Organization", name: site.siteName, url: absoluteUrl(site.origin, "/") },
      },
      breadcrumbs(site, [
        { name: "Home", path: "/" },
        { name: "Blog", path: "/blog" },
        { name: article.metaTitle, path },
      ]),
    ],
  });
};

export default function ArticlePage() {
  const loaded = useLoaderData<typeof loader>();

  useEffect(() => {
    if (loaded.state === "error") toast.error("Error", { description: messages.articleFailed });
  }, [loaded]);

  if (loaded.state !== "ok") {
    return <ArticleNotFound message={loaded.state === "error" ? messages.articleFailed : messages.articleMissing} />;
  }
  const { article } = loaded;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <BackToBlog />
      <ArticleHeader article={article} />
      <HeroImage src={article.pinterestImageLink} title={article.metaTitle} />
      <ArticleBody html={article.bodyHtml} />
      <VideoShort url={article.youtubeShortsUrl} title={article.metaTitle} />
      <KeywordChips shortTail={article.shortTailKeywords} longTail={article.longTailKeywords} />
      <div className="mt-14 border-t border-stone-200 pt-10 text-center">
        <BackToBlog label="Back to All Articles" asButton />
      </div>
    </article>
  );
}
