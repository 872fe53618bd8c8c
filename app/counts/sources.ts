import { MAX_KEY_LENGTH, type SourceKind } from "./tally";

/** A visitor who came with no referrer (typed the address, a bookmark, an app that sends none). */
export const NO_REFERRER = "(none)";
const UTM = ["utm_source", "utm_medium", "utm_campaign"] as const;

/**
 * Pure: where a visitor came from, as bounded keys. `referrer` is the page's `document.referrer`; a
 * referrer on the site's own host is no source. Hosts are lowercased and lose "www."; a host must have
 * a dot and at most MAX_KEY_LENGTH characters (anything else is no host at all). `query` is the page's
 * query string: of it, only the three utm values are kept, cut to MAX_KEY_LENGTH, lowercased, without
 * control characters.
 */
export function sourcesOf(referrer: string, query: string, ownHost: string): { kind: SourceKind; key: string }[] {
  const sources: { kind: SourceKind; key: string }[] = [];
  const host = referrerHost(referrer);
  if (host !== ownHost.replace(/^www\./, "")) sources.push({ kind: "referrer", key: host ?? NO_REFERRER });
  const params = new URLSearchParams(query.slice(0, 2048));
  for (const kind of UTM) {
    const value = params
      .get(kind)
      ?.replace(/[\p{C}]+/gu, "")
      .trim()
      .toLowerCase()
      .slice(0, MAX_KEY_LENGTH);
    if (value) sources.push({ kind, key: value });
  }
  return sources;
}

function referrerHost(referrer: string): string | undefined {
  if (!referrer || referrer.length > 2048 || !URL.canParse(referrer)) return undefined;
  const url = new URL(referrer);
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  return hostKey(url.hostname);
}

/**
 * Pure: a host name as a count's key, lowercased and without "www.", or undefined when it is none: it must
 * have a dot, at most MAX_KEY_LENGTH characters, and only the letters of a host (IDNs come as punycode).
 */
export function hostKey(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/^www\./, "");
  return host.includes(".") && host.length <= MAX_KEY_LENGTH && /^[a-z0-9.-]+$/.test(host) ? host : undefined;
}
