import type { BlogEntry } from "~/blog/types";
import { useTranslation } from "~/i18n/use-translation";
import { BlogCard } from "./BlogCard";

/**
 * Other articles to read, at the end of an article: plain links, so they work without JavaScript. Below
 * the fold, so their images load lazily. `data-read-next` lets print styles leave the section out.
 */
export function ReadNext({ entries }: { entries: BlogEntry[] }) {
  const { t } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="read-next-title" className="mt-14" data-read-next="">
      <h2 id="read-next-title" className="font-serif text-2xl font-semibold text-ink">
        {t("article.readNext")}
      </h2>
      <ul className="mt-6 grid gap-6 md:grid-cols-3">
        {entries.map((entry) => (
          <BlogCard key={entry.slug} blog={entry} headingLevel={3} />
        ))}
      </ul>
    </section>
  );
}
