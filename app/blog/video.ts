/** The provider's privacy-enhanced embed host: no cookies are set until the reader presses play. */
const EMBED_BASE = "https://www.youtube-nocookie.com/embed/";

const EMBED_PARAMS = "autoplay=0&mute=1&controls=1&showinfo=0&rel=0&iv_load_policy=3&modestbranding=1";

/** The provider's own hosts: its site (and its www. and mobile names) and its short-link host. */
const SITE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com"]);
const SHORT_LINK_HOST = "youtu.be";

const VIDEO_ID = /^[A-Za-z0-9_-]+$/;

/**
 * The spec's rule: only a shorts path (`youtube.com/shorts/{id}`) or a short link (`youtu.be/{id}`)
 * with an id of letters, digits, underscore or hyphen yields a video. Read as a URL, on the provider's
 * own hosts alone: `https://evil.example/?u=youtube.com/shorts/abc` names another host, and yields none,
 * as do watch pages and other providers.
 */
export function extractVideoId(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  // A trailing slash is the same page.
  const path = url.pathname.replace(/\/$/, "");
  const id =
    url.hostname === SHORT_LINK_HOST
      ? /^\/([^/]+)$/.exec(path)?.[1]
      : SITE_HOSTS.has(url.hostname)
        ? /^\/shorts\/([^/]+)$/.exec(path)?.[1]
        : undefined;
  return id && VIDEO_ID.test(id) ? id : undefined;
}

export function videoEmbedUrl(videoId: string): string {
  return `${EMBED_BASE}${encodeURIComponent(videoId)}?${EMBED_PARAMS}`;
}
