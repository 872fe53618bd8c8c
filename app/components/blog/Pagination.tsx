import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/use-translation";
import { pageHref, pageWindow } from "~/blog/pagination";

/** `hrefOf` gives a page's address: the blog list's by default. */
type Props = { page: number; pages: number; busy: boolean; hrefOf?: (page: number) => string };

const base = "inline-flex h-11 min-w-11 items-center justify-center rounded-full px-4 text-sm font-semibold transition";
const idle = `${base} border border-stone-300 bg-white text-stone-800 hover:bg-stone-100`;
const current = `${base} bg-moss-700 text-white`;
const disabled = `${base} border border-stone-200 bg-stone-100 text-stone-600 cursor-not-allowed`;

/**
 * Previous, up to five page numbers, Next: plain links, so paging works without JavaScript. The numbers
 * are in the language's digits, the addresses in ASCII (`?page=2`).
 * While a page change is loading every control is disabled.
 */
export function Pagination({ page, pages, busy, hrefOf = pageHref }: Props) {
  const { t, numeral } = useTranslation();
  if (pages <= 1) return null;
  const item = (
    target: number,
    label: string,
    isDisabled: boolean,
    extra: { rel?: string; ariaLabel?: string } = {},
  ) =>
    isDisabled || busy ? (
      // No aria-label: a plain span may not carry one (its text is the name).
      <span aria-disabled="true" className={disabled}>
        {label}
      </span>
    ) : (
      <Link
        to={hrefOf(target)}
        rel={extra.rel}
        aria-label={extra.ariaLabel}
        className={idle}
        preventScrollReset={false}
      >
        {label}
      </Link>
    );
  return (
    <nav aria-label={t("pagination.label")} className="mt-12 flex flex-wrap items-center justify-center gap-2">
      {item(page - 1, t("pagination.previous"), page <= 1, { rel: "prev" })}
      {pageWindow(page, pages).map((number) =>
        number === page ? (
          // aria-current, not an aria-label, which a plain span may not carry.
          <span key={number} aria-current="page" className={current}>
            {numeral(number)}
          </span>
        ) : (
          <span key={number}>
            {item(number, numeral(number), false, { ariaLabel: t("pagination.page", { number }) })}
          </span>
        ),
      )}
      {item(page + 1, t("pagination.next"), page >= pages, { rel: "next" })}
    </nav>
  );
}
