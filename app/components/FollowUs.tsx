import { useState } from "react";
import { useHydrated } from "~/hooks/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";

export type Follow = {
  /** The site's address on the social web (@zen@zen.example.org), when it can be followed there (FEDIVERSE=on). */
  handle: string | undefined;
  /** The community's own channels (FOLLOW_LINKS). */
  links: { label: string; href: string }[];
};

/**
 * The footer's Follow Us block: the site's address on the social web in a read-only box, which any reader
 * can select and copy without JavaScript (with it, a Copy button too), the community's own channels, and
 * the blog's feed. Nothing at all when there is neither a handle nor a channel.
 */
export function FollowUs({ follow, linkClass }: { follow: Follow; linkClass: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const { handle, links } = follow;
  if (!handle && links.length === 0) return null;
  const copy = () => {
    if (!handle) return;
    navigator.clipboard?.writeText(handle).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="space-y-4 text-sm">
      {handle ? (
        <div>
          <p className="leading-relaxed text-stone-300">{t("footer.followFediverse")}</p>
          <div className="mt-2 flex items-center gap-2">
            <input
              type="text"
              readOnly
              value={handle}
              aria-label={t("footer.fediverseHandle")}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded-md border border-white/15 bg-white/5 px-2 py-1.5 font-mono text-xs text-white"
            />
            {hydrated ? (
              <button
                type="button"
                onClick={copy}
                className="shrink-0 rounded-md border border-white/25 px-3 py-1.5 text-xs font-semibold text-white hover:bg-white/10"
              >
                {t("footer.copyHandle")}
              </button>
            ) : null}
          </div>
          <p role="status" className="mt-1 min-h-4 text-xs text-moss-100">
            {copied ? t("footer.handleCopied") : ""}
          </p>
        </div>
      ) : null}
      <ul className="space-y-2">
        {links.map((channel) => (
          <li key={channel.href}>
            <a href={channel.href} className={linkClass} target="_blank" rel="noopener noreferrer me">
              {channel.label}
            </a>
          </li>
        ))}
        <li>
          <a href="/blog/rss.xml" className={linkClass} type="application/rss+xml">
            {t("feed.linkTitle")}
          </a>
        </li>
      </ul>
    </div>
  );
}
