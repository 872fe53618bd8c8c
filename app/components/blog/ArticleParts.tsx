import { Link } from "@remix-run/react";
import type { ArticleView } from "~/blog/types";
import { FallibleImage } from "~/components/FallibleImage";
import type { TextKey } from "~/i18n/messages";
import { joinSentences } from "~/i18n/sentences";
import { useTranslation } from "~/i18n/use-translation";
import type { ImageCandidates } from "~/images/responsive-image";
import { keywordKey, keywordPath } from "~/search/keyword-key";

const backLink = "inline-flex items-center gap-2 font-semibold text-moss-700 hover:text-ochre-700 print:hidden";
const backButton =
  "inline-flex items-center gap-2 rounded-full bg-moss-700 px-7 py-3 font-semibold text-white shadow-sm hover:bg-moss-800 print:hidden";

export function BackToBlog({
  label = "article.backToBlog",
  asButton = false,
}: {
  label?: TextKey;
  asButton?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Link to="/blog" className={asButton ? backButton : backLink}>
      <span aria-hidden="true">←</span> {t(label)}
    </Link>
  );
}

export function ArticleHeader({ article }: { article: ArticleView }) {
  const { published } = article;
  const { parts, plural } = useTranslation();
  return (
    <header className="mt-8">
      {article.image ? (
        <FallibleImage
          image={article.image.thumbnail}
          width={64}
          height={64}
          decoding="async"
          className="mb-6 h-16 w-16 rounded-full object-cover ring-4 ring-white shadow"
          data-testid="article-thumbnail"
        />
      ) : null}
      <h1 className="font-serif text-4xl font-semibold leading-tight tracking-tight text-ink sm:text-5xl">
        {article.metaTitle}
      </h1>
      {/* One above the other on a phone, where a separator would be left hanging at the end of a line. */}
      <p className="mt-4 flex flex-col gap-1 text-sm font-medium uppercase tracking-wider text-stone-600 sm:flex-row sm:flex-wrap sm:gap-x-3">
        {published ? (
          <>
            <span>
              {parts("article.publishedOn", {
                date: (
                  <time key="date" dateTime={published.iso}>
                    {published.label}
                  </time>
                ),
              })}
            </span>
            <span aria-hidden="true" className="hidden sm:inline">
              ·
            </span>
          </>
        ) : null}
        <span>{plural("article.readingTime", article.readingMinutes)}</span>
      </p>
      {article.metaDescription ? (
        <p className="mt-6 text-xl leading-relaxed text-stone-700">{article.metaDescription}</p>
      ) : null}
    </header>
  );
}

/** The hero's copies are 3:2 (app/images/image-variants.ts); CSS crops them to the figure's height. */
export function HeroImage({
  image,
  link,
  title,
}: {
  image: ImageCandidates | undefined;
  link: string | undefined;
  title: string;
}) {
  const { t } = useTranslation();
  if (!image || !link) return null;
  return (
    <figure className="group relative mt-10 overflow-hidden rounded-2xl bg-stone-200 shadow-sm">
      <FallibleImage
        image={image}
        alt={title}
        width={1200}
        height={800}
        fetchPriority="high"
        decoding="async"
        className="h-64 w-full object-cover md:h-96"
      />
      <a
        href={link}
        target="_blank"
        rel="noopener noreferrer"
        className="absolute bottom-4 right-4 rounded-full bg-white/90 px-4 py-2 text-sm font-semibold text-ink opacity-0 shadow transition-opacity group-hover:opacity-100 focus:opacity-100 print:hidden"
      >
        {t("article.viewOnPinterest")}
      </a>
    </figure>
  );
}

export function ArticleBody({ html, shortened }: { html: string; shortened?: ArticleView["bodyShortened"] }) {
  const { t, lang } = useTranslation();
  return (
    <>
      {shortened ? (
        <p
          role="note"
          className="mt-10 rounded-xl bg-stone-100 px-5 py-4 text-stone-800 ring-1 ring-stone-200"
          data-testid="body-shortened"
        >
          {shortened.cut
            ? joinSentences(lang, t("article.bodyShortened"), t("article.bodyCut"))
            : t("article.bodyShortened")}
        </p>
      ) : null}
      {/* Rendered and sanitised on the server by react-markdown, or escaped as plain text (app/blog/article-body.server.ts). */}
      <div className="article-body mt-10" dangerouslySetInnerHTML={{ __html: html }} />
    </>
  );
}

export function VideoShort({ src, title }: { src: string | undefined; title: string }) {
  const { t } = useTranslation();
  if (!src) return null;
  return (
    <section aria-labelledby="video-title" className="mt-14 print:hidden">
      <h2 id="video-title" className="font-serif text-2xl font-semibold text-ink">
        {t("article.videoTitle")}
      </h2>
      <div className="mx-auto mt-6 aspect-[9/16] w-full max-w-xs overflow-hidden rounded-2xl bg-black shadow">
        <iframe
          src={src}
          title={t("article.videoFrame", { title })}
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          className="h-full w-full border-0"
        />
      </div>
    </section>
  );
}

export function KeywordChips({ shortTail: short, longTail: long }: ArticleView["keywords"]) {
  const { t } = useTranslation();
  if (short.length === 0 && long.length === 0) return null;
  const group = (label: string, keywords: string[], chip: string) =>
    keywords.length > 0 ? (
      <div className="mt-5">
        <h3 className="text-sm font-semibold uppercase tracking-wider text-stone-600">{label}</h3>
        <ul aria-label={label} className="mt-3 flex flex-wrap gap-2">
          {keywords.map((keyword) => (
            <li key={keyword}>
              {/* Each chip leads to the keyword's page of articles; one made of punctuation alone has none. */}
              {keywordKey(keyword) ? (
                <Link
                  to={keywordPath(keyword)}
                  prefetch="intent"
                  className={`inline-block rounded-full px-3 py-1 text-sm hover:underline ${chip}`}
                >
                  {keyword}
                </Link>
              ) : (
                <span className={`inline-block rounded-full px-3 py-1 text-sm ${chip}`}>{keyword}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
    ) : null;
  return (
    <section aria-labelledby="keywords-title" className="mt-14 rounded-2xl border border-stone-200 bg-white p-6">
      <h2 id="keywords-title" className="font-serif text-2xl font-semibold text-ink">
        {t("article.keywordsTitle")}
      </h2>
      {group(t("article.topics"), short, "bg-moss-50 text-moss-800 ring-1 ring-moss-100")}
      {group(t("article.relatedSearches"), long, "bg-stone-100 text-stone-800 ring-1 ring-stone-200")}
    </section>
  );
}

export function ArticleNotFound({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <h1 className="font-serif text-4xl font-semibold text-ink">{t("article.notFoundTitle")}</h1>
      <p className="mt-4 text-lg text-stone-700">{message}</p>
      <div className="mt-8">
        <BackToBlog asButton />
      </div>
    </div>
  );
}
