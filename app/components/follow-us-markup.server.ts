import { escapeMarkup } from "~/document/escape-markup";
import type { Translator } from "~/i18n/messages";

export type Follow = {
  /** The site's address on the social web (@zen@zen.example.org), when it can be followed there (FEDIVERSE=on). */
  handle: string | undefined;
  /** The community's own channels (FOLLOW_LINKS). */
  links: readonly { label: string; href: string }[];
};

const link = "text-stone-300 underline-offset-4 hover:text-white hover:underline";

/**
 * The footer's Follow Us block as HTML made on the server (the footer shows it as it is): the site's address
 * on the social web in a read-only box any reader can select and copy, with or without JavaScript, the
 * community's own channels (rel="me", which Mastodon uses to verify a profile's links) and the blog's feed.
 * Made here rather than by a component so that it adds no script to any page, followable or not.
 * None when there is neither a handle nor a channel: the block stays empty, as the spec has it.
 */
export function followUsMarkup({ handle, links }: Follow, { t }: Pick<Translator, "t">): string | undefined {
  if (!handle && links.length === 0) return undefined;
  const box = handle
    ? `<div><p class="leading-relaxed text-stone-300">${escapeMarkup(t("footer.followFediverse"))}</p>` +
      `<input type="text" readonly value="${escapeMarkup(handle)}" aria-label="${escapeMarkup(t("footer.fediverseHandle"))}" class="mt-2 w-full rounded-md border border-white/15 bg-white/5 px-2 py-1.5 font-mono text-xs text-white"></div>`
    : "";
  const channels = links
    .map(
      (channel) =>
        `<li><a href="${escapeMarkup(channel.href)}" class="${link}" target="_blank" rel="noopener noreferrer me">${escapeMarkup(channel.label)}</a></li>`,
    )
    .join("");
  const feed = `<li><a href="/blog/rss.xml" class="${link}" type="application/rss+xml">${escapeMarkup(t("feed.linkTitle"))}</a></li>`;
  return `<div class="space-y-4 text-sm">${box}<ul class="space-y-2">${channels}${feed}</ul></div>`;
}
