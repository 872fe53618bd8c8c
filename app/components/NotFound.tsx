import { Link, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { AdRow } from "./AdRow";
import { useTranslation } from "~/i18n/use-translation";
import { useSiteSettings } from "~/root";

/** The spec's 404 screen. It also tells the browser console which path was asked for. */
export function NotFound() {
  const { pathname } = useLocation();
  const { adScriptUrl } = useSiteSettings();
  const { t } = useTranslation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <>
      <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-24 text-center sm:px-6">
        <p className="font-serif text-8xl font-semibold text-moss-700">404</p>
        <h1 className="mt-4 font-serif text-3xl font-semibold text-ink">{t("notFound.title")}</h1>
        <p className="mt-4 text-lg text-stone-700">{t("notFound.text")}</p>
        <Link
          to="/"
          className="mt-8 inline-flex items-center rounded-full bg-moss-700 px-7 py-3 font-semibold text-white shadow-sm hover:bg-moss-800"
        >
          {t("notFound.home")}
        </Link>
      </section>
      <AdRow name="not-found" scriptUrl={adScriptUrl} />
    </>
  );
}
