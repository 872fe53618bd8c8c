import dns from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, fetch } from "undici";
import { bareHost, isListedHost, isPublicAddress } from "./image-hosts";
import { ImageSourceError } from "./errors.server";

/**
 * Where a fetch may go. `only`: these hosts and no other (IMAGE_HOSTS). `also`: public addresses, and these
 * hosts besides wherever they resolve (FEDIVERSE_HOSTS). Neither: public addresses only.
 */
export type Reach = { only?: readonly string[]; also?: readonly string[]; /** named in refusals */ setting?: string };

export type OneHop = {
  reach: Reach;
  /** Ends the request, the body's reading included. */
  signal: AbortSignal;
  maxBytes: number;
  headers: Record<string, string>;
  /** Refuses a body whose Content-Type this does not take, before reading it. */
  takesType(type: string): boolean;
};

export type HopAnswer = { status: number; headers: Headers; body: Buffer; location?: URL };

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

/** The agent that may connect to `url`, or a refusal: only http(s), no credentials, only where `reach` allows. */
function agentFor(url: URL, reach: Reach): Agent {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ImageSourceError(403, `${url.protocol} links are not fetched`);
  }
  if (url.username || url.password) throw new ImageSourceError(403, "links with credentials are not fetched");
  if (reach.only) {
    if (!isListedHost(url, reach.only))
      throw new ImageSourceError(403, `${url.host} is not in ${reach.setting ?? "the listed hosts"}`);
    return listedAgent;
  }
  if (reach.also && isListedHost(url, reach.also)) return listedAgent;
  // A literal address is connected to without a lookup, so it is checked here.
  const host = bareHost(url);
  if (isIP(host) && !isPublicAddress(host)) throw new ImageSourceError(403, `${host} is not a public address`);
  return publicAgent;
}

/**
 * One request to another host, redirects not followed (the caller checks each hop again): a redirect gives
 * its `location`, a success its body read up to the byte limit, all within the signal's time; an error
 * only its status.
 */
export async function fetchOneHop(url: URL, hop: OneHop): Promise<HopAnswer> {
  try {
    const response = await fetch(url, {
      redirect: "manual",
      signal: hop.signal,
      dispatcher: agentFor(url, hop.reach),
      headers: hop.headers,
    });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      return {
        status: response.status,
        headers: response.headers,
        body: Buffer.alloc(0),
        location: new URL(location, url),
      };
    }
    // An error's body is never read: nothing uses it, and it may be large.
    if (!response.ok) {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: Buffer.alloc(0) };
    }
    const type = response.headers.get("content-type") ?? "";
    if (type && !hop.takesType(type)) {
      await response.body?.cancel();
      throw new ImageSourceError(415, `the answer is ${type.split(";")[0]}`);
    }
    if (Number(response.headers.get("content-length") ?? 0) > hop.maxBytes) {
      await response.body?.cancel();
      throw new ImageSourceError(413, "the answer is larger than the byte limit");
    }
    const body = await readLimited(response.body, hop.maxBytes);
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    throw asSourceError(error, hop.signal);
  }
}

async function readLimited(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    for await (const chunk of body) {
      total += chunk.byteLength;
      // Leaving the loop cancels the stream: the rest is never downloaded.
      if (total > maxBytes) throw new ImageSourceError(413, "the answer is larger than the byte limit");
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
  if (signal.aborted) return new ImageSourceError(404, "the host did not answer in time");
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return new ImageSourceError(404, `the host could not be reached (${message})`);
}
