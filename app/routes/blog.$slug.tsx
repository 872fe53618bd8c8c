import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { servicesOf } from "~/services/context.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { isPossibleSlug, slugFromPath } from "~/blog/slug";
import { ArticleAddress } from "~/components/blog/ArticleAddress";
import {
  ArticleBody,
  ArticleHeader,
  ArticleNotFound,
  BackToBlog,
  HeroImage,
  KeywordChips,
  VideoShort,
} from "~/components/blog/ArticleParts";
import { ReadNext } from "~/components/blog/ReadNext";
import { showToast } from "~/components/Toaster";
import { loaderHeaders } from "~/document/route-headers";
import { siteIdentity } from "~/site/config.server";
import { useTranslation } from "~/i18n/use-translation";
import { startReadNext } from "~/search/read-next.server";
import { articleMeta, notFoundMeta } from "~/crawlers/page-meta.server";
import { articleAlternate } from "~/fediverse/paths";

export async function loader({ request, context }: LoaderFunctionArgs) {
  // From the address as sent, not params.slug: the router decodes a %2F twice (app/blog/slug.ts).
  const slug = slugFromPath(new URL(request.url).pathname) ?? "";
  const services = servicesOf(context);
  const cacheHeaders = services.httpCache.headers;
  const domain = services.domainOf(request);
  const site = siteIdentity(request, services.site);
  const missingMeta = notFoundMeta(site, "article.notFoundTitle");
  const missing = () =>
    data({ state: "missing" as const, meta: missingMeta }, { status: 404, headers: cacheHeaders("missing") });
  if (!isPossibleSlug(slug)) return missing();
  // Started with the article: from the catalogue, or on a cold site from the list, whose call overlaps the
  // article's. It never fails: without either the article shows without suggestions.
  const readNextFor = startReadNext({
    catalogue: () => services.catalogue(domain),
    newestEntries: () => services.blog.newestEntries(domain),
    reading: () => services.reading(domain),
    cardImage: services.images.cardImage,
  });
  try {
    const article = await services.blog.article(domain, slug);
    if (!article) return missing();
    const readNext = await readNextFor(article);
    const { fediverse, siteUrl } = services.site;
    // A followable site's article points servers to its ActivityPub form (Mastodon reads the Link header).
    const alternate: Record<string, string> =
      fediverse && siteUrl ? { Link: articleAlternate(siteUrl, article.slug) } : {};
    return data(
      { state: "ok" as const, article, readNext, meta: articleMeta(site, article) },
      { headers: { ...cacheHeaders("page"), ...alternate } },
    );
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`Article ${JSON.stringify(slug)}: ${error.message}`);
    return data(
      { state: "error" as const, meta: missingMeta },
      { status: 503, headers: { "Retry-After": "60", ...cacheHeaders("unavailable") } },
    );
  }
}

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function ArticlePage() {
  const loaded = useLoaderData<typeof loader>();
  const { t } = useTranslation();

  useEffect(() => {
    if (loaded.state === "error")
      showToast({ title: t("toast.error"), description: t("article.failed"), variant: "destructive" });
  }, [loaded, t]);

  if (loaded.state !== "ok") {
    return <ArticleNotFound message={t(loaded.state === "error" ? "article.failed" : "article.missing")} />;
  }
  const { article, readNext } = loaded;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <BackToBlog />
      <ArticleHeader article={article} />
      <HeroImage image={article.image?.hero} link={article.pinterestImageLink} title={article.metaTitle} />
      <ArticleBody html={article.bodyHtml} shortened={article.bodyShortened} />
      <VideoShort src={article.videoEmbedUrl} title={article.metaTitle} />
      <KeywordChips {...article.keywords} />
      <ReadNext entries={readNext} />
      <div className="mt-14 border-t border-stone-200 pt-10 text-center">
        <BackToBlog label="article.backToAll" asButton />
      </div>
      <ArticleAddress meta={loaded.meta} />
    </article>
  );
}
