/** The addresses of the site's actor, its collections and its articles, under SITE_URL. */
export const PATHS = {
  actor: "/ap/actor/{identifier}",
  inbox: "/ap/inbox/{identifier}",
  sharedInbox: "/ap/inbox",
  outbox: "/ap/outbox/{identifier}",
  followers: "/ap/followers/{identifier}",
  article: "/ap/articles/{slug}",
  nodeInfo: "/nodeinfo/2.1",
} as const;

/**
 * Where an article's ActivityPub form is, for its page to point to (a `Link` header): a server given the
 * page's address (Mastodon's search, a pasted link) finds the Article there.
 */
export function articleAlternate(siteUrl: string, slug: string): string {
  const address = new URL(PATHS.article.replace("{slug}", encodeURIComponent(slug)), siteUrl);
  return `<${address.href}>; rel="alternate"; type="application/activity+json"`;
}
