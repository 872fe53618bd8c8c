import { signRequest } from "@fedify/fedify";
import {
  createActivityPubRequest,
  FetchError,
  getRemoteDocument,
  preloadedContexts,
  validatePublicUrl,
  type DocumentLoader,
} from "@fedify/fedify/runtime";
import { fetchOneHop } from "~/images/bounded-fetch.server";
import { isListedHost } from "~/images/image-hosts";

/**
 * Where the site's federation may send requests, for the documents and keys it fetches and the inboxes
 * it delivers to: addresses on the public internet (a name is resolved and each of its addresses checked,
 * as Fedify does for documents), and the hosts FEDIVERSE_HOSTS lists, written as IMAGE_HOSTS is, for
 * instances on the operator's own network and for tests. Never a private address otherwise, so a hostile
 * actor document cannot make the site reach into the network it runs in.
 */
export type OutgoingRule = {
  documentLoader: DocumentLoader;
  /** The same, for requests signed by the site's key (instances that answer only signed requests). */
  authenticatedLoader(identity: { keyId: URL; privateKey: CryptoKey }): DocumentLoader;
  /** JSON-LD contexts: only those Fedify carries (ActivityStreams, security, Mastodon's…), never fetched. */
  contextLoader: DocumentLoader;
  allows(url: URL): Promise<boolean>;
};

/**
 * What the site reads of another server's answer (an actor, a key, an activity): at most 1 MB, as Mastodon
 * reads JSON, within 10 s for all of it, through at most 5 redirects, each checked as the first address is.
 */
export type DocumentLimits = { maxBytes: number; timeoutMs: number; maxRedirects: number };
export const DOCUMENT_LIMITS: DocumentLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 5 };

export function outgoingRule(
  hosts: readonly string[],
  userAgent: string,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): OutgoingRule {
  const fetchDocument = (sign?: (request: Request) => Promise<Request>) =>
    boundedLoader(hosts, userAgent, limits, sign);
  return {
    documentLoader: fetchDocument(),
    contextLoader: knownContexts,
    authenticatedLoader(identity) {
      // Signed as Mastodon's authorized fetch checks (draft-cavage), which every server that asks for it reads.
      return fetchDocument((request) => signRequest(request, identity.privateKey, identity.keyId));
    },
    async allows(url) {
      if (url.protocol !== "https:" && url.protocol !== "http:") return false;
      if (url.username || url.password) return false;
      if (isListedHost(url, hosts)) return true;
      try {
        await validatePublicUrl(url.href);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * A document loader as Fedify's, read within the limits: each hop through the images' bounded fetch (public
 * addresses, checked when connecting, or the listed hosts), the answer then read by Fedify's own rules. An
 * answer that names an alternate (a `Link`, or an HTML page's `<link rel="alternate">`) is followed once,
 * within the same time and redirects: A pointing to B pointing to A ends there.
 */
function boundedLoader(
  hosts: readonly string[],
  userAgent: string,
  limits: DocumentLimits,
  sign?: (request: Request) => Promise<Request>,
): DocumentLoader {
  const within = async (url: string, signal: AbortSignal, budget: { redirects: number; alternates: number }) => {
    const preloaded = preloadedContexts[url];
    if (preloaded !== undefined) return { contextUrl: null, documentUrl: url, document: preloaded };
    let target = new URL(url);
    for (;;) {
      const unsigned = createActivityPubRequest(target.href, { userAgent });
      const request = sign ? await sign(unsigned) : unsigned;
      const answer = await fetchOneHop(target, {
        reach: { also: hosts, setting: "FEDIVERSE_HOSTS" },
        signal,
        maxBytes: limits.maxBytes,
        headers: Object.fromEntries(request.headers),
        takesType: (type) => /json|html/i.test(type),
      }).catch((error: unknown) => {
        throw new FetchError(target, error instanceof Error ? error.message : String(error));
      });
      if (answer.location) {
        if (budget.redirects <= 0) throw new FetchError(target, "too many redirects");
        budget.redirects -= 1;
        target = answer.location;
        continue;
      }
      // undici passes on any status a server makes up; a Response takes 200–599 only.
      if (answer.status < 200 || answer.status > 599) throw new FetchError(target, `HTTP ${answer.status}`);
      const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
      const response = new Response(empty ? null : new Uint8Array(answer.body), {
        status: answer.status,
        headers: answer.headers,
      });
      const from = target;
      const alternate = (next: string) => {
        if (budget.alternates <= 0) return Promise.reject(new FetchError(next, "too many alternates"));
        budget.alternates -= 1;
        return within(next, signal, budget);
      };
      return getRemoteDocument(from.href, response, alternate).catch((error: unknown) => {
        // Not JSON, or not a document: the callers (Fedify's lookups) expect a FetchError for any bad answer.
        if (error instanceof FetchError) throw error;
        throw new FetchError(from, `not a document: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  };
  return (url, options) => {
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    return within(url, signal, { redirects: limits.maxRedirects, alternates: 1 });
  };
}

/** The inbox address, when the site may deliver to it. */
export async function checkedInbox(url: URL, rule: OutgoingRule): Promise<URL | undefined> {
  return (await rule.allows(url)) ? url : undefined;
}

/**
 * A context an activity names that is not one of the known is not fetched: an unsigned request could
 * otherwise make the site fetch any address, and Mastodon reads activities without fetching contexts too.
 */
const knownContexts: DocumentLoader = (url) => {
  const document = preloadedContexts[url];
  if (document === undefined) return Promise.reject(new FetchError(url, `${url} is not a known JSON-LD context`));
  return Promise.resolve({ contextUrl: null, documentUrl: url, document });
};
