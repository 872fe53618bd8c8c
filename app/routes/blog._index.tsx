import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { asCard } from "~/blog/blog.server";
import { mostReadOf } from "~/search/most-read.server";
import { servicesOf } from "~/services/context.server";
import { BlogUnavailableError } from "~/blog/errors.server";
import { BlogCard } from "~/components/blog/BlogCard";
import { MostRead } from "~/components/blog/MostRead";
import { Pagination } from "~/components/blog/Pagination";
import { Spinner } from "~/components/Spinner";
import { showToast } from "~/components/Toaster";
import { MAX_PAGE, pageCount, parsePageParam } from "~/blog/pagination";
import { loaderHeaders } from "~/document/route-headers";
import { noindexMeta } from "~/crawlers/seo";
import { siteIdentity } from "~/site/config.server";
import { useTranslation } from "~/i18n/use-translation";
import { blogListMeta, blogTitle } from "~/crawlers/page-meta.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = servicesOf(context);
  const cacheHeaders = services.httpCache.headers;
  const { site } = services;
  const domain = services.domainOf(request);
  const param = parsePageParam(new URL(request.url).searchParams);
  if (!param.canonical) throw redirect(param.redirectTo, 301);
  const { page } = param;
  const notFound = () => data(null, { status: 404, headers: cacheHeaders("missing") });
  if (page > MAX_PAGE) throw notFound();
  // The blog's front page only; never fails (an empty list shows nothing).
  const mostRead =
    page === 1
      ? mostReadOf(
          () => services.reading(domain),
          () => services.catalogue(domain),
        )
      : Promise.resolve([]);
  let list;
  try {
    list = await services.blog.listPage(domain, page);
  } catch (error) {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`Blog list page ${page}: ${error.message}`);
    return data(
      { state: "error" as const, page, meta: noindexMeta(blogTitle(siteIdentity(request, site), 1)) },
      { status: 503, headers: { "Retry-After": "60", ...cacheHeaders("unavailable") } },
    );
  }
  const pages = pageCount(list.total);
  if (page > Math.max(1, pages)) throw notFound();
  const meta = blogListMeta(siteIdentity(request, site), page, pages);
  return data(
    {
      state: "ok" as const,
      blogs: list.blogs.map(asCard),
      total: list.total,
      page,
      pages,
      meta,
      mostRead: list.blogs.length > 0 ? await mostRead : [],
    },
    { headers: cacheHeaders("page") },
  );
}

export const headers = loaderHeaders;

/** Cards per row on wide screens (lg:grid-cols-3). */
const CARDS_PER_ROW = 3;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function BlogList() {
  const loaded = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const changingPage = navigation.state === "loading" && navigation.location.pathname === "/blog";
  const { t } = useTranslation();

  useEffect(() => {
    if (loaded.state === "error")
      showToast({ title: t("toast.error"), description: t("blog.failed"), variant: "destructive" });
  }, [loaded, t]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="font-serif text-4xl font-semibold tracking-tight text-ink sm:text-5xl">{t("blog.title")}</h1>
        <p className="mt-4 text-lg leading-relaxed text-stone-700">{t("blog.intro")}</p>
      </header>

      {loaded.state === "error" ? (
        <div
          role="alert"
          className="mx-auto mt-12 max-w-xl rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800"
        >
          {t("blog.failed")}
        </div>
      ) : loaded.blogs.length === 0 ? (
        <div className="mx-auto mt-12 max-w-xl rounded-xl border border-stone-200 bg-white p-10 text-center">
          <h2 className="font-serif text-2xl font-semibold text-ink">{t("blog.emptyTitle")}</h2>
          <p className="mt-2 text-stone-600">{t("blog.emptyText")}</p>
        </div>
      ) : (
        <>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy={changingPage}>
            {loaded.blogs.map((blog, index) => (
              <BlogCard key={blog.id} blog={blog} inFirstRow={index < CARDS_PER_ROW} />
            ))}
          </ul>
          {changingPage ? <Spinner label={t("blog.loadingPage")} className="mt-8" /> : null}
          <Pagination page={loaded.page} pages={loaded.pages} busy={changingPage} />
          <MostRead entries={loaded.mostRead} />
        </>
      )}
    </div>
  );
}
