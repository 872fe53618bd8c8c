/** The provider's privacy-enhanced embed host: no cookies are set until the reader presses play. */
const EMBED_BASE = "https://www.youtube-nocookie.com/embed/";

const EMBED_PARAMS = "autoplay=0&mute=1&controls=1&showinfo=0&rel=0&iv_load_policy=3&modestbranding=1";

/**
 * The spec's rule: only a shorts path or a short-link host followed by an id of letters, digits,
 * underscore or hyphen yields a video. Anything else (watch pages, other providers) yields none.
 */
export function extractVideoId(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  const match = /(?:youtube\.com\/shorts\/|youtu\.be\/)([A-Za-z0-9_-]+)/.exec(url);
  return match?.[1];
}

export function videoEmbedUrl(videoId: string): string {
  return `${EMBED_BASE}${encodeURIComponent(videoId)}?${EMBED_PARAMS}`;
}
