import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";

/** A calm page for anything unexpected. Never shows internals: the details are in the server log. */
export function ErrorPage({ status }: { status: number }) {
  const unavailable = status === 503;
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <p className="font-serif text-7xl font-semibold text-stone-400">{status}</p>
      <h1 className="mt-4 font-serif text-3xl font-semibold text-ink">
        {t(unavailable ? "error.unavailableTitle" : "error.title")}
      </h1>
      <p className="mt-4 text-lg text-stone-700">{t(unavailable ? "error.unavailableText" : "error.text")}</p>
      <Link
        to="/"
        className="mt-8 inline-flex items-center rounded-full bg-moss-700 px-7 py-3 font-semibold text-white shadow-sm hover:bg-moss-800"
      >
        {t("notFound.home")}
      </Link>
    </section>
  );
}
