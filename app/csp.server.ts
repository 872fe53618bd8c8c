import type { Settings } from "~/config.server";

const VIDEO_ORIGIN = "https://www.youtube-nocookie.com";

const origin = (url: string | undefined) => (url ? new URL(url).origin : undefined);

/**
 * The document's Content-Security-Policy. Scripts run only with this response's nonce; 'strict-dynamic'
 * lets those scripts load others (the ad network and lead-form scripts we inject). Frames only from the
 * configured embeds and the video player. See docs/decisions/007.
 */
export function contentSecurityPolicy(nonce: string, settings: Settings): string {
  const frames = new Set([VIDEO_ORIGIN, origin(settings.rssFeedEmbedUrl), origin(settings.leadForm.url)].filter(Boolean));
  // Ad scripts fetch and draw from hosts we cannot list; allow https for them only when ads are configured.
  const thirdPartyScripts = Boolean(settings.adScriptUrl || settings.leadForm.scriptUrl);
  if (settings.adScriptUrl) frames.add("https:");
  const directives = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' https: 'unsafe-inline'`,
    "object-src 'none'",
    "base-uri 'none'",
    `frame-src ${[...frames].join(" ")}`,
    "frame-ancestors 'self'",
    "form-action 'self'",
    `img-src 'self' https: data:`,
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self'${thirdPartyScripts ? " https:" : ""}`,
    "font-src 'self'",
    "manifest-src 'self'",
  ];
  // Only where the site is known to be on HTTPS: on plain http it would break the page's own assets.
  if (settings.hstsMaxAge > 0) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}
