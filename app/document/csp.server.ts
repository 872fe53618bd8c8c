import { createHash } from "node:crypto";
import type { SiteSettings } from "~/site/config.server";

const VIDEO_ORIGIN = "https://www.youtube-nocookie.com";

const origin = (url: string | undefined) => (url ? new URL(url).origin : undefined);

/** The CSP source expression that allows exactly this inline script. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The Content-Security-Policy of a rendered document. Its inline scripts (`inlineScripts`, their text as
 * the page has them: app/document/page-scripts.ts) run because their sha256 hashes are listed, so the page is the same bytes for every reader and any cache can keep it;
 * 'strict-dynamic' lets those scripts load others (the page's modules, the ad network and lead-form
 * scripts we inject). `https:` and 'unsafe-inline' only matter to browsers older than CSP 3, which
 * ignore the rest. Frames only from the configured embeds and the video player.
 * See docs/decisions/013.
 */
export function contentSecurityPolicy(
  inlineScripts: string[],
  settings: SiteSettings,
  { upgradeInsecureRequests = false } = {},
): string {
  const frames = new Set(
    [VIDEO_ORIGIN, origin(settings.rssFeedEmbedUrl), origin(settings.leadForm.url)].filter(Boolean),
  );
  // Ad scripts fetch and draw from hosts we cannot list; allow https for them only when ads are configured.
  const thirdPartyScripts = Boolean(settings.adScriptUrl || settings.leadForm.scriptUrl);
  if (settings.adScriptUrl) frames.add("https:");
  const hashes = inlineScripts.map(scriptHash);
  const directives = [
    "default-src 'self'",
    `script-src ${[...hashes, "'strict-dynamic'", "https:", "'unsafe-inline'"].join(" ")}`,
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
  if (upgradeInsecureRequests) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}
