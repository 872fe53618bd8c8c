import dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, fetch } from "undici";
import { bareHost, isListedHost, isPublicAddress } from "./image-hosts";
import { ImageSourceError } from "./errors.server";

export type FetchLimits = {
  /** IMAGE_HOSTS: when set, only these hosts, on whatever address they resolve to. */
  hosts?: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
};

/**
 * Resolves a name and refuses it when any of its addresses is not public, so the connection goes to
 * an address that was checked: a second answer from DNS (rebinding) never reaches the socket.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((entry) => !isPublicAddress(entry.address));
    if (refused || list.length === 0) {
      return callback(new ImageSourceError(403, `${hostname} resolves to a non-public address`), "", 0);
    }
    if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

const publicAgent = new Agent({ connect: { lookup: publicOnlyLookup }, connections: 16 });
const listedAgent = new Agent({ connections: 16 });

/** Throws when the URL may not be fetched: only http(s), only listed hosts or public addresses. */
function checkTarget(url: URL, hosts: readonly string[] | undefined) {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ImageSourceError(403, `${url.protocol} links are not fetched`);
  }
  if (url.username || url.password) throw new ImageSourceError(403, "links with credentials are not fetched");
  if (hosts) {
    if (!isListedHost(url, hosts)) throw new ImageSourceError(403, `${url.host} is not in IMAGE_HOSTS`);
    return;
  }
  // A literal address is connected to without a lookup, so it is checked here.
  const host = bareHost(url);
  if (isIP(host) && !isPublicAddress(host)) throw new ImageSourceError(403, `${host} is not a public address`);
}

/**
 * Fetches an image source from another host: redirects followed by hand (each hop checked again),
 * the body read up to the byte limit, the whole within the time limit.
 */
export async function fetchSource(link: string, limits: FetchLimits): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = new URL(link);
  try {
    for (let hop = 0; ; hop += 1) {
      checkTarget(url, limits.hosts);
      const response = await fetch(url, {
        redirect: "manual",
        signal,
        dispatcher: limits.hosts ? listedAgent : publicAgent,
        headers: { accept: "image/avif,image/webp,image/jpeg,image/png,image/*;q=0.8" },
      });
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= limits.maxRedirects) throw new ImageSourceError(404, "too many redirects");
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new ImageSourceError(404, `the source answered ${response.status}`);
      }
      const type = response.headers.get("content-type") ?? "";
      if (type && !/^(image\/|application\/octet-stream)/i.test(type)) {
        await response.body?.cancel();
        throw new ImageSourceError(415, `the source is ${type.split(";")[0]}, not an image`);
      }
      if (Number(response.headers.get("content-length") ?? 0) > limits.maxBytes) {
        await response.body?.cancel();
        throw new ImageSourceError(413, "the source is larger than the byte limit");
      }
      return await readLimited(response.body, limits.maxBytes);
    }
  } catch (error) {
    throw asSourceError(error, signal);
  }
}

async function readLimited(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    for await (const chunk of body) {
      total += chunk.byteLength;
      // Leaving the loop cancels the stream: the rest is never downloaded.
      if (total > maxBytes) throw new ImageSourceError(413, "the source is larger than the byte limit");
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/** undici wraps connection errors (our refused lookup among them) in "fetch failed". */
function asSourceError(error: unknown, signal: AbortSignal): ImageSourceError {
  if (error instanceof ImageSourceError) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof ImageSourceError) return cause;
  if (signal.aborted) return new ImageSourceError(404, "the source did not answer in time");
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new ImageSourceError(404, `the source could not be reached (${message})`);
}
