import { useNavigation } from "@remix-run/react";
import type { BlogEntry } from "~/blog/types";
import { BlogCard } from "~/components/blog/BlogCard";
import { Pagination } from "~/components/blog/Pagination";
import { Spinner } from "~/components/Spinner";
import { useTranslation } from "~/i18n/use-translation";
import { pageHref } from "~/blog/pagination";

type Loaded =
  | { state: "unavailable" }
  | { state: "ok"; keyword: string; base: string; page: number; pages: number; total: number; blogs: BlogEntry[] };

/** Every article with one keyword, as cards, with the blog's plain pagination links. */
export function KeywordArticles({ loaded }: { loaded: Loaded }) {
  const { t, plural } = useTranslation();
  const navigation = useNavigation();
  if (loaded.state !== "ok") {
    return (
      <p
        role="alert"
        className="mx-auto my-16 max-w-xl rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800"
      >
        {t("search.unavailable")}
      </p>
    );
  }
  const busy = navigation.state === "loading" && navigation.location.pathname === loaded.base;
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="font-serif text-4xl font-semibold tracking-tight text-ink">
          {t("keywords.title", { keyword: loaded.keyword })}
        </h1>
        <p className="mt-4 text-lg text-stone-700">{plural("keywords.count", loaded.total)}</p>
      </header>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy={busy}>
        {loaded.blogs.map((blog, index) => (
          <BlogCard key={blog.slug} blog={blog} inFirstRow={index < 3} />
        ))}
      </ul>
      {busy ? <Spinner label={t("blog.loadingPage")} className="mt-8" /> : null}
      <Pagination page={loaded.page} pages={loaded.pages} busy={busy} hrefOf={(page) => pageHref(page, loaded.base)} />
    </div>
  );
}
