import { fetchOneHop } from "./bounded-fetch.server";
import { ImageSourceError } from "./errors.server";

export type FetchLimits = {
  /** IMAGE_HOSTS: when set, only these hosts, on whatever address they resolve to. */
  hosts?: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
};

const IMAGE_TYPE = /^(image\/|application\/octet-stream)/i;

/**
 * Fetches an image source from another host: redirects followed by hand (each hop checked again),
 * the body read up to the byte limit, the whole within the time limit.
 */
export async function fetchSource(link: string, limits: FetchLimits): Promise<Buffer> {
  const hop = {
    reach: limits.hosts ? { only: limits.hosts, setting: "IMAGE_HOSTS" } : {},
    signal: AbortSignal.timeout(limits.timeoutMs),
    maxBytes: limits.maxBytes,
    headers: { accept: "image/avif,image/webp,image/jpeg,image/png,image/*;q=0.8" },
    takesType: (type: string) => IMAGE_TYPE.test(type),
  };
  let url = new URL(link);
  for (let hops = 0; ; hops += 1) {
    const answer = await fetchOneHop(url, hop);
    if (answer.location) {
      if (hops >= limits.maxRedirects) throw new ImageSourceError(404, "too many redirects");
      url = answer.location;
      continue;
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new ImageSourceError(404, `the source answered ${answer.status}`);
    }
    return answer.body;
  }
}
