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
import { siteIdentity } from "~/lib/root-data";

const MAX_SLUG_LENGTH = 300;

export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  if (!slug.trim() || slug.length > MAX_SLUG_LENGTH) return data({ state: "missing" as const }, { status: 404 });
  try {
    const article = await getArticle(request, slug);
    if (!article) return data({ state: "missing" as const }, { status: 404 });
    return { state: "ok" as const, article };
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`Article ${JSON.stringify(slug)}: ${error.message}`);
    return data({ state: "error" as const }, { status: 503, headers: { "Retry-After": "60" } });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => {
  const { siteName } = siteIdentity(matches);
  if (loaded?.state !== "ok") {
    return [{ title: `Article Not Found · ${siteName}` }, { name: "robots", content: "noindex" }];
  }
  return [
    { title: loaded.article.metaTitle },
    { name: "description", content: loaded.article.metaDescription },
  ];
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
