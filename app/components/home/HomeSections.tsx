import { AdSlot } from "~/components/AdRow";
import { EmbedFrame } from "~/components/EmbedFrame";
import { SiteMark } from "~/components/SiteMark";
import { useTranslation } from "~/i18n/use-translation";
import type { Mark } from "~/site/traditions";

export const FEED_HEIGHT_PX = 800;
export const CONTACT_FORM_HEIGHT_PX = 789;

const sectionHeading = "font-serif text-3xl font-semibold tracking-tight text-ink sm:text-4xl";
const eyebrow = "text-sm font-semibold uppercase tracking-widest text-moss-700";

export function Hero({ product, mark }: { product: string; mark: Mark }) {
  const { t } = useTranslation();
  return (
    <section
      id="home"
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-stone-100 via-paper to-paper"
    >
      <SiteMark
        mark={mark}
        className="pointer-events-none absolute -right-24 top-10 h-[28rem] w-[28rem] text-stone-900/[0.06] sm:right-0 md:h-[36rem] md:w-[36rem]"
      />
      <div className="relative mx-auto flex min-h-[70vh] max-w-6xl flex-col justify-center px-4 py-20 sm:px-6">
        <p className={eyebrow}>{t("hero.eyebrow")}</p>
        <h1
          id="hero-title"
          className="mt-4 max-w-3xl font-serif text-4xl font-semibold leading-tight tracking-tight text-ink sm:text-5xl md:text-6xl"
        >
          {t("hero.title", { product })}
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-stone-700">{t("hero.subtitle")}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          <a
            href="#about"
            className="inline-flex items-center rounded-full bg-moss-700 px-7 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-moss-800"
          >
            {t("hero.learnMore")}
          </a>
          <a
            href="#resources"
            className="inline-flex items-center rounded-full border border-stone-400 bg-white/60 px-7 py-3 font-semibold text-stone-800 transition-colors hover:bg-white"
          >
            {t("hero.viewResources")}
          </a>
        </div>
      </div>
    </section>
  );
}

const pillars = [
  { title: "about.pillar1.title", text: "about.pillar1.text" },
  { title: "about.pillar2.title", text: "about.pillar2.text" },
  { title: "about.pillar3.title", text: "about.pillar3.text" },
] as const;

/** `ownText`: the site's own About text as HTML (ABOUT_FILE), in place of its tradition's two paragraphs. */
export function About({
  product,
  encyclopediaUrl,
  ownText,
}: {
  product: string;
  encyclopediaUrl: string;
  ownText?: string;
}) {
  const { t } = useTranslation();
  return (
    <section id="about" aria-labelledby="about-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="grid items-start gap-12 md:grid-cols-2">
        <div>
          <p className={eyebrow}>{t("about.eyebrow")}</p>
          <h2 id="about-title" className={`mt-3 ${sectionHeading}`}>
            {t("about.title", { product })}
          </h2>
          {ownText ? (
            // Rendered and sanitised on the server, as an article body is (app/blog/about-text.server.ts).
            <div
              className="article-body about-text mt-6 text-lg text-stone-700"
              dangerouslySetInnerHTML={{ __html: ownText }}
            />
          ) : (
            <div className="mt-6 space-y-4 text-lg leading-relaxed text-stone-700">
              <p>{t("about.paragraph1", { product })}</p>
              <p>{t("about.paragraph2")}</p>
            </div>
          )}
          <a
            href={encyclopediaUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-6 inline-flex items-center gap-1 font-semibold text-moss-700 underline underline-offset-4 hover:text-ochre-700"
          >
            {t("about.encyclopediaLink", { product })}
            <span aria-hidden="true">↗</span>
          </a>
        </div>
        <ul className="grid gap-4">
          {pillars.map((pillar) => (
            <li key={pillar.title} className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
              <h3 className="font-serif text-xl font-semibold text-ink">{t(pillar.title)}</h3>
              <p className="mt-2 leading-relaxed text-stone-700">{t(pillar.text)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function Resources({ feedUrl }: { feedUrl: string | undefined }) {
  const { t } = useTranslation();
  return (
    <section id="resources" aria-labelledby="resources-title" className="bg-stone-100/70 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <p className={eyebrow}>{t("resources.eyebrow")}</p>
        <h2 id="resources-title" className={`mt-3 ${sectionHeading}`}>
          {t("resources.title")}
        </h2>
        <p className="mt-4 max-w-2xl text-lg text-stone-700">{t("resources.intro")}</p>
        <div className="mt-10 grid gap-8 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <EmbedFrame
              src={feedUrl}
              title={t("resources.feedTitle")}
              height={FEED_HEIGHT_PX}
              missingText={t("resources.feedMissing")}
            />
          </div>
          <div className="space-y-8">
            <div className="rounded-xl border border-ochre-600/30 bg-amber-50 p-6">
              <h3 className="font-serif text-xl font-semibold text-ink">{t("resources.featuredTitle")}</h3>
              <p className="mt-3 leading-relaxed text-stone-700">{t("resources.featuredText")}</p>
              <p className="mt-3 text-sm text-stone-600">{t("resources.sponsored")}</p>
            </div>
            <AdSlot id="ad-resources-tower" height={600} className="hidden lg:flex" />
          </div>
        </div>
      </div>
    </section>
  );
}

export function Contact({ formUrl, scriptUrl }: { formUrl: string | undefined; scriptUrl: string | undefined }) {
  const { t } = useTranslation();
  return (
    <section id="contact" aria-labelledby="contact-title" className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
      <p className={`text-center ${eyebrow}`}>{t("contact.eyebrow")}</p>
      <h2 id="contact-title" className={`mt-3 text-center ${sectionHeading}`}>
        {t("contact.title")}
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-center text-lg text-stone-700">{t("contact.intro")}</p>
      <div className="mt-10">
        <EmbedFrame
          src={formUrl}
          scriptUrl={scriptUrl}
          title={t("contact.formTitle")}
          height={CONTACT_FORM_HEIGHT_PX}
          missingText={t("contact.formMissing")}
        />
      </div>
    </section>
  );
}
