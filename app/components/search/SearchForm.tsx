import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { MAX_QUERY_CHARS } from "~/search/query-limits";

type Props = {
  /** The words already searched for, on the results page. */
  query?: string;
  /** The landmark's name: two search forms on one page need two names. */
  label?: string;
  size?: "compact" | "large";
  className?: string;
};

/**
 * A plain GET form to /search: without JavaScript the browser submits it; with JavaScript Remix's Form
 * navigates on the client. The label is visible to screen readers, the button names the action.
 */
export function SearchForm({ query, label, size = "compact", className = "" }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const large = size === "large";
  return (
    <Form
      method="get"
      action="/search"
      role="search"
      aria-label={label ?? t("search.label")}
      className={`flex items-center gap-2 ${className}`}
    >
      <label htmlFor={id} className="sr-only">
        {t("search.input")}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        key={query}
        maxLength={MAX_QUERY_CHARS}
        enterKeyHint="search"
        autoComplete="off"
        className={`min-w-0 flex-1 rounded-full border border-stone-300 bg-white text-stone-900 placeholder:text-stone-500 focus:border-moss-700 focus:outline-none focus:ring-2 focus:ring-moss-700/30 ${large ? "h-12 px-5 text-base" : "h-9 w-36 px-3 text-sm lg:w-44"}`}
      />
      <button
        type="submit"
        className={`inline-flex shrink-0 items-center justify-center rounded-full bg-moss-700 font-semibold text-white hover:bg-moss-800 ${large ? "h-12 px-6" : "h-9 w-9"}`}
        aria-label={large ? undefined : t("search.button")}
      >
        {large ? t("search.button") : <SearchIcon />}
      </button>
    </Form>
  );
}

export function SearchIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-3.5-3.5" />
    </svg>
  );
}
