import { getAuthenticatedDocumentLoader } from "@fedify/fedify";
import {
  FetchError,
  getDocumentLoader,
  preloadedContexts,
  validatePublicUrl,
  type DocumentLoader,
} from "@fedify/fedify/runtime";
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

export function outgoingRule(hosts: readonly string[], userAgent: string): OutgoingRule {
  const publicOnly = getDocumentLoader({ allowPrivateAddress: false, userAgent });
  const listed = getDocumentLoader({ allowPrivateAddress: true, userAgent });
  return {
    documentLoader: (url, options) => (isListedHost(new URL(url), hosts) ? listed : publicOnly)(url, options),
    contextLoader: knownContexts,
    authenticatedLoader(identity) {
      const publicOnlySigned = getAuthenticatedDocumentLoader(identity, { allowPrivateAddress: false, userAgent });
      const listedSigned = getAuthenticatedDocumentLoader(identity, { allowPrivateAddress: true, userAgent });
      return (url, options) => (isListedHost(new URL(url), hosts) ? listedSigned : publicOnlySigned)(url, options);
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
