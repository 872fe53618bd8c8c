import { useRef } from "react";
import { useExternalScript } from "~/hooks/use-external-script";
import { useTranslation } from "~/i18n/use-translation";

type Props = {
  /** Unique per page: slot ids are built from it. */
  name: string;
  /** The ad network script, injected into this row's first slot when given. */
  scriptUrl?: string;
  /** Slot height: 250 for banner rows, 600 for a tall skyscraper row. */
  height?: 250 | 600;
};

const slotClass =
  "items-center justify-center rounded-lg border border-dashed border-stone-300 bg-stone-100/70 text-xs uppercase tracking-widest text-stone-600";

/**
 * A row of ad slots with fixed minimum heights, so filling them never moves the page.
 * Phones get one slot, wider screens three.
 */
export function AdRow({ name, scriptUrl, height = 250 }: Props) {
  const scriptHost = useRef<HTMLDivElement>(null);
  useExternalScript(scriptUrl, scriptHost);
  const minHeight = { minHeight: `${height}px` };
  const { t } = useTranslation();
  return (
    // Not a landmark: several per page, and nothing a reader needs to jump to.
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6" data-ad-row={name}>
      <div className="grid gap-4 md:grid-cols-3">
        <div
          id={`ad-${name}-1`}
          ref={scriptHost}
          className={`ad-slot flex ${slotClass}`}
          style={minHeight}
          data-ad-container=""
        >
          <span aria-hidden="true">{t("ads.label")}</span>
        </div>
        <AdSlot id={`ad-${name}-2`} height={height} className="hidden md:flex" />
        <AdSlot id={`ad-${name}-3`} height={height} className="hidden md:flex" />
      </div>
    </div>
  );
}

/** One ad slot with its height reserved. */
export function AdSlot({ id, height, className = "flex" }: { id: string; height: 250 | 600; className?: string }) {
  const { t } = useTranslation();
  return (
    <div id={id} className={`ad-slot ${className} ${slotClass}`} style={{ minHeight: `${height}px` }}>
      <span aria-hidden="true">{t("ads.label")}</span>
    </div>
  );
}
