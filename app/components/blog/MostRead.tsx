import { Link } from "@remix-run/react";
import type { MostRead as Entries } from "~/search/most-read.server";
import { useTranslation } from "~/i18n/use-translation";

/**
 * The blog's most read articles of the week (app/search/most-read.server.ts): plain links, so they work
 * without JavaScript; nothing at all while the site has too few counts. Numbered in the language's digits.
 */
export function MostRead({ entries }: { entries: Entries }) {
  const { t, numeral } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <aside aria-labelledby="most-read-title" className="mx-auto mt-16 max-w-2xl" data-most-read="">
      <h2 id="most-read-title" className="font-serif text-2xl font-semibold text-ink">
        {t("blog.mostRead")}
      </h2>
      <ol className="mt-5 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {entries.map((entry, index) => (
          <li key={entry.slug} className="flex items-baseline gap-4 px-5 py-3">
            <span aria-hidden="true" className="font-serif text-lg font-semibold text-moss-700">
              {numeral(index + 1)}
            </span>
            <Link
              to={`/blog/${encodeURIComponent(entry.slug)}`}
              className="font-semibold text-ink hover:text-ochre-700"
            >
              {entry.title}
            </Link>
          </li>
        ))}
      </ol>
    </aside>
  );
}
