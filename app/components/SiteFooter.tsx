import { useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { homeSections, sectionHref } from "~/site/site-sections";
import { SiteMark } from "./SiteMark";
import type { Mark } from "~/site/traditions";

type Partner = { label: string; href: string };

export function SiteFooter({
  siteName,
  product,
  partners,
  followUs,
  mark,
}: {
  siteName: string;
  product: string;
  partners: Partner[];
  /** The Follow Us block's HTML, made on the server (./follow-us-markup.server.ts); none leaves it empty. */
  followUs: string | undefined;
  mark: Mark;
}) {
  const onHomePage = useLocation().pathname === "/";
  const { t } = useTranslation();
  const heading = "text-sm font-semibold uppercase tracking-wider text-stone-300";
  const link = "text-stone-300 underline-offset-4 hover:text-white hover:underline";
  return (
    <footer className="site-footer bg-ink text-stone-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 font-serif text-lg font-semibold text-white">
            <SiteMark mark={mark} className="h-7 w-7 text-moss-100" />
            {siteName}
          </p>
          <p className="mt-3 text-sm leading-relaxed text-stone-300">{t("footer.about", { product })}</p>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className={heading}>
            {t("footer.quickLinks")}
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {homeSections.map((section) => (
              <li key={section.id}>
                <a href={sectionHref(section.id, onHomePage)} className={link}>
                  {t(section.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-partners">
          <h2 id="footer-partners" className={heading}>
            {t("footer.partners")}
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {partners.map((partner) => (
              <li key={partner.href}>
                <a href={partner.href} className={link} target="_blank" rel="noopener noreferrer">
                  {partner.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className={heading}>{t("footer.followUs")}</h2>
          {/* Empty, as the spec has it, until the site can be followed or lists its own channels (FOLLOW_LINKS). */}
          <div
            className="mt-4"
            data-testid="follow-us"
            dangerouslySetInnerHTML={followUs ? { __html: followUs } : undefined}
          />
        </div>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-stone-400 sm:px-6">
          {t("footer.copyright", { site: siteName })}
        </p>
      </div>
    </footer>
  );
}
