import { useCallback, useEffect, useRef } from "react";
import { useHydrated } from "~/hooks/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";
import { LotusMark } from "./LotusMark";

export const DONATION_DELAY_MS = 30_000;
const DISMISSED_KEY = "donation-dismissed";

type Props = {
  siteName: string;
  donationUrl: string | undefined;
  /** Opens by itself after the spec's delay; only the home page asks for this. */
  autoOpen: boolean;
};

/**
 * With JavaScript: a modal <dialog> (focus moves in and back, Escape and the backdrop close it) that
 * opens 30 s after the home page loads or from any "#donate" link. Without JavaScript the same element
 * is shown by CSS when the URL's fragment is #donate, and "Maybe Later" is a link that clears it.
 */
export function DonationDialog({ siteName, donationUrl, autoOpen }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const { t } = useTranslation();

  const open = useCallback(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const close = useCallback(() => dialogRef.current?.close(), []);

  // "#donate" links open the modal in place instead of jumping to the fragment.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href='#donate'], a[href='/#donate']");
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
      event.preventDefault();
      open();
    };
    const onHash = () => {
      if (window.location.hash === "#donate") open();
    };
    onHash();
    document.addEventListener("click", onClick);
    window.addEventListener("hashchange", onHash);
    return () => {
      document.removeEventListener("click", onClick);
      window.removeEventListener("hashchange", onHash);
    };
  }, [open]);

  useEffect(() => {
    if (!autoOpen || readDismissed()) return;
    const timer = window.setTimeout(open, DONATION_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [autoOpen, open]);

  const onClose = () => {
    rememberDismissed();
    if (window.location.hash === "#donate") {
      window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    }
  };

  return (
    <dialog
      id="donate"
      ref={dialogRef}
      className="donate-dialog"
      // What the page's script counts (app/beacon/measure.client.ts): the pop-up shown, a click on its backdrop.
      data-shown="donate_shown"
      data-count="donate_backdrop"
      aria-labelledby="donate-title"
      aria-describedby="donate-text"
      onClose={onClose}
      onClick={(event) => {
        // A click on the dialog element itself is a click on the dimmed backdrop around the panel.
        if (event.target === event.currentTarget) close();
      }}
    >
      {!hydrated ? (
        <a href="#close" className="absolute inset-0 cursor-default" aria-hidden="true" tabIndex={-1} />
      ) : null}
      <div className="relative w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-2xl">
        <div
          aria-hidden="true"
          className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-moss-50 text-moss-700"
        >
          <LotusMark className="h-9 w-9" />
        </div>
        <h2 id="donate-title" className="font-serif text-2xl font-semibold text-ink">
          {t("donation.title", { site: siteName })}
        </h2>
        <p id="donate-text" className="mt-3 leading-relaxed text-stone-700">
          {t("donation.text")}
        </p>
        <div className="mt-7 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
          {hydrated ? (
            <button type="button" onClick={close} className={secondaryButton} data-count="donate_later">
              {t("donation.later")}
            </button>
          ) : (
            <a href="#close" className={secondaryButton}>
              {t("donation.later")}
            </a>
          )}
          <a href={donationUrl ?? "/#contact"} className={primaryButton} onClick={close} data-count="donate_now">
            {t("donation.donate")}
          </a>
        </div>
      </div>
    </dialog>
  );
}

const secondaryButton =
  "inline-flex items-center justify-center rounded-full border border-stone-300 px-6 py-3 text-sm font-semibold text-stone-800 hover:bg-stone-50";
const primaryButton =
  "inline-flex items-center justify-center rounded-full bg-moss-700 px-6 py-3 text-sm font-semibold text-white shadow-sm hover:bg-moss-800";

function readDismissed() {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

function rememberDismissed() {
  try {
    window.sessionStorage.setItem(DISMISSED_KEY, "1");
  } catch {
    // Storage may be blocked; the pop-up then simply may appear again on the next visit.
  }
}
