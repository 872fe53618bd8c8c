import { Link, useNavigation } from "@remix-run/react";
import { Pagination } from "~/components/blog/Pagination";
import { Spinner } from "~/components/Spinner";
import { useTranslation } from "~/i18n/use-translation";
import type { SnippetPart } from "~/search/catalogue";
import { searchHref } from "~/search/search-address";
import { SearchForm } from "./SearchForm";

type Hit = { slug: string; title: string; date?: string; snippet: SnippetPart[] };
type Loaded =
  | { state: "empty"; query: string; siteName: string }
  | { state: "unavailable"; query: string }
  | {
      state: "results";
      query: string;
      page: number;
      pages: number;
      total: number;
      more: boolean;
      match: "all" | "any";
      suggestion?: string;
      hits: Hit[];
      /** Articles read so far, while the first sync is still reading the site's list. */
      reading?: number;
      siteName: string;
    };

const notice = "mx-auto mt-10 max-w-2xl rounded-xl border border-stone-200 bg-white p-8 text-center text-stone-700";

export function SearchResults({ loaded }: { loaded: Loaded }) {
  const { t, plural, parts, lang } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location.pathname === "/search";
  const { query } = loaded;
  // While the first sync is still reading the site's list, the results may lack articles: said above them, or instead of "no article matches".
  const stillReading =
    loaded.state === "results" && loaded.reading !== undefined
      ? plural("search.stillReading", loaded.reading, { site: loaded.siteName })
      : undefined;
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-ink">
        {loaded.state === "results" ? t("search.resultsTitle", { query }) : t("search.title")}
      </h1>
      <SearchForm query={query} size="large" label={t("search.title")} className="mt-8" />
      {loaded.state === "empty" ? <p className={notice}>{t("search.emptyQuery", { site: loaded.siteName })}</p> : null}
      {loaded.state === "unavailable" ? (
        <p
          role="alert"
          className="mx-auto mt-10 max-w-2xl rounded-xl border border-red-200 bg-red-50 p-6 text-center text-red-800"
        >
          {t("search.unavailable")}
        </p>
      ) : null}
      {loaded.state === "results" ? (
        <>
          {loaded.suggestion ? (
            <p className="mt-8 text-lg text-stone-800">
              {parts("search.didYouMean", {
                suggestion: (
                  <Link
                    key="suggestion"
                    to={searchHref(loaded.suggestion)}
                    className="font-semibold text-moss-700 underline"
                  >
                    {loaded.suggestion}
                  </Link>
                ),
              })}
            </p>
          ) : null}
          {stillReading !== undefined && loaded.total > 0 ? (
            <p role="status" className="mt-8 rounded-xl border border-ochre-600/30 bg-amber-50 p-4 text-stone-800">
              {stillReading}
            </p>
          ) : null}
          {loaded.total === 0 ? (
            <div className={notice}>
              <p role={stillReading !== undefined ? "status" : undefined} className="font-semibold text-ink">
                {stillReading ?? t("search.noResults", { query })}
              </p>
              <p className="mt-2">
                {t("search.noResultsHint")}{" "}
                <Link to="/blog" className="font-semibold text-moss-700 underline">
                  {t("nav.blog")}
                </Link>
              </p>
            </div>
          ) : (
            <>
              {loaded.match === "any" ? <p className="mt-8 text-stone-700">{t("search.anyWords")}</p> : null}
              <p className="mt-8 text-sm font-semibold text-stone-700" aria-live="polite">
                {loaded.more
                  ? t("search.countMore", { count: loaded.total.toLocaleString(lang) })
                  : plural("search.count", loaded.total)}
              </p>
              <ol aria-label={t("search.resultsLabel")} aria-busy={busy} className="mt-4 space-y-6">
                {loaded.hits.map((hit) => (
                  <li key={hit.slug} className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
                    <h2 className="font-serif text-xl font-semibold leading-snug text-ink">
                      <Link
                        to={`/blog/${encodeURIComponent(hit.slug)}`}
                        prefetch="intent"
                        className="hover:text-moss-700 hover:underline"
                      >
                        {hit.title}
                      </Link>
                    </h2>
                    {hit.date ? <p className="mt-1 text-sm text-stone-600">{hit.date}</p> : null}
                    <p className="mt-3 leading-relaxed text-stone-700">
                      {hit.snippet.map((part, index) =>
                        part.mark ? (
                          <mark key={index} className="rounded bg-moss-100 px-0.5 text-stone-900">
                            {part.text}
                          </mark>
                        ) : (
                          part.text
                        ),
                      )}
                    </p>
                  </li>
                ))}
              </ol>
              {busy ? <Spinner label={t("blog.loadingPage")} className="mt-8" /> : null}
              <Pagination
                page={loaded.page}
                pages={loaded.pages}
                busy={busy}
                hrefOf={(page) => searchHref(query, page)}
              />
            </>
          )}
        </>
      ) : null}
    </div>
  );
}
