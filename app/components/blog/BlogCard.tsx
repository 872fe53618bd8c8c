import { Link } from "@remix-run/react";
import type { BlogEntry } from "~/blog/types";
import { FallibleImage } from "~/components/FallibleImage";
import { useTranslation } from "~/i18n/use-translation";

type Props = {
  blog: BlogEntry;
  /** The cards in the first row are in view as the page opens: their images load at once, the rest lazily. */
  inFirstRow?: boolean;
  /** The title's heading level: one below the heading of the list the card is in; a level down is a size down. */
  headingLevel?: 2 | 3;
};

export function BlogCard({ blog, inFirstRow = false, headingLevel = 2 }: Props) {
  const { t } = useTranslation();
  const [Title, size] = headingLevel === 3 ? (["h3", "text-lg"] as const) : (["h2", "text-xl"] as const);
  return (
    <li>
      <Link
        to={`/blog/${encodeURIComponent(blog.slug)}`}
        prefetch="intent"
        className="group flex h-full flex-col rounded-2xl border border-stone-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
      >
        {blog.image ? (
          <FallibleImage
            image={blog.image}
            width={80}
            height={80}
            loading={inFirstRow ? "eager" : "lazy"}
            decoding="async"
            className="mb-5 h-20 w-20 rounded-full object-cover ring-4 ring-stone-100"
          />
        ) : null}
        <Title
          className={`line-clamp-2 font-serif ${size} font-semibold leading-snug text-ink group-hover:text-moss-700`}
        >
          {blog.metaTitle}
        </Title>
        {/* Not stretched to the card's height: a clamped box taller than its lines shows the lines after the "…". */}
        <p className="mt-3 line-clamp-3 leading-relaxed text-stone-700">{blog.metaDescription}</p>
        <span className="mt-auto inline-flex pt-5 items-center gap-1 text-sm font-semibold text-moss-700">
          {t("blog.readMore")}{" "}
          <span aria-hidden="true" className="transition group-hover:translate-x-0.5">
            →
          </span>
        </span>
      </Link>
    </li>
  );
}
