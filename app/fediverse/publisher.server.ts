import { createHash } from "node:crypto";
import type { Federation, KvStore } from "@fedify/fedify";
import { Article, Delete, PUBLIC_COLLECTION, Tombstone, Update } from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { Blog } from "~/blog/blog.server";
import type { ArticleView } from "~/blog/types";
import { createOf } from "./article-object";
import { pause } from "./queue-rules";

const PUBLISHED = "published";
const BASELINE = "published-baseline";
const FOLLOWERS_COUNTED = "followers-counted";

export type PublisherDeps = {
  federation: Federation<void>;
  kv: KvStore;
  blog: Pick<Blog, "newestArticles" | "article">;
  domain: string;
  handle: string;
  origin: string;
  /** The article's social-web form (./article-object.ts, with the site's addresses and language), `updated` when it changed. */
  objectOf(article: ArticleView, updated?: Temporal.Instant): Article;
  /** Whether the site's catalogue still holds the article (its sync removes those the source dropped). */
  stillListed(slug: string): Promise<boolean>;
  /** Counts the followers there are, in the row of `day` (UTC) of the operator's report. */
  followersOfTheDay(day: string): Promise<void>;
  everyMs: number;
  onError(error: unknown): void;
};

/** Rounds between two looks for removed articles, which reads every article published. */
const REMOVALS_EVERY = 10;

/** What a follower sees of an article: a change to any of it is an Update. */
export function fingerprint(article: ArticleView): string {
  const { metaTitle, metaDescription, pinterestImageLink, keywords, date } = article;
  return createHash("sha256")
    .update(JSON.stringify([metaTitle, metaDescription, pinterestImageLink ?? "", keywords, date]))
    .digest("base64url")
    .slice(0, 22);
}

/**
 * Tells the site's followers of its articles: a `Create` for one that is new among the newest, an `Update`
 * for one whose title, description, picture, keywords or date changed, a `Delete` for one the catalogue no
 * longer holds and the source no longer has. What was published is kept in the site's state, by slug; each
 * change is claimed there by compare-and-swap, so with several origins exactly one sends it. Sending goes
 * through the durable queue, once per shared inbox, retried by Fedify with backoff. The first round after
 * federation is turned on records the articles there are without sending anything, so that followers are
 * not sent the whole archive.
 */
export function startPublisher(deps: PublisherDeps, signal: AbortSignal) {
  void (async () => {
    for (let round = 0; !signal.aborted; round++) {
      await publishChanges(deps, { removals: round % REMOVALS_EVERY === 0 }).catch(deps.onError);
      await countFollowersOnce(deps, new Date().toISOString().slice(0, 10)).catch(deps.onError);
      await pause(deps.everyMs, signal);
    }
  })();
}

/** The day's followers, counted by the first origin to look that day (claimed by compare-and-swap). */
export async function countFollowersOnce(deps: Pick<PublisherDeps, "kv" | "followersOfTheDay">, day: string) {
  const counted = await deps.kv.get<string>([FOLLOWERS_COUNTED]);
  if (counted === day || !(await deps.kv.cas!([FOLLOWERS_COUNTED], counted, day))) return false;
  await deps.followersOfTheDay(day);
  return true;
}

export async function publishChanges(
  deps: PublisherDeps,
  { removals = true }: { removals?: boolean } = {},
): Promise<{ created: string[]; updated: string[]; deleted: string[] }> {
  const { kv, blog, domain } = deps;
  const done = { created: [] as string[], updated: [] as string[], deleted: [] as string[] };
  const articles = await blog.newestArticles(domain);
  if (!(await kv.get([BASELINE]))) {
    for (const article of articles) await kv.set([PUBLISHED, article.slug], fingerprint(article));
    await kv.set([BASELINE], true);
    return done;
  }
  const newest = new Set(articles.map((article) => article.slug));
  for (const article of articles) {
    const known = await kv.get<string>([PUBLISHED, article.slug]);
    const now = fingerprint(article);
    if (known === now || !(await kv.cas!([PUBLISHED, article.slug], known, now))) continue;
    const updated = known === undefined ? undefined : Temporal.Now.instant();
    await send(deps, updated ? "Update" : "Create", article.slug, deps.objectOf(article, updated), now);
    (known === undefined ? done.created : done.updated).push(article.slug);
  }
  if (!removals) return done;
  for await (const entry of kv.list([PUBLISHED])) {
    const slug = entry.key[1]!;
    if (newest.has(slug) || (await deps.stillListed(slug))) continue;
    // The catalogue may not have caught up: only an article the source says is gone is deleted.
    if ((await blog.article(domain, slug).catch(() => undefined)) !== null) continue;
    if (!(await kv.cas!([PUBLISHED, slug], entry.value, null))) continue;
    await kv.delete([PUBLISHED, slug]);
    await send(deps, "Delete", slug, undefined, "gone");
    done.deleted.push(slug);
  }
  return done;
}

async function send(
  deps: PublisherDeps,
  kind: "Create" | "Update" | "Delete",
  slug: string,
  object: Article | undefined,
  version: string,
) {
  const ctx = deps.federation.createContext(new URL(deps.origin), undefined);
  const actor = ctx.getActorUri(deps.handle);
  const id = ctx.getObjectUri(Article, { slug });
  const common = {
    // The same Create the outbox shows; each Update its own, by the version it carries.
    id: new URL(`${id.href}#${kind === "Update" ? `update-${version}` : kind.toLowerCase()}`),
    actor,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(deps.handle),
  };
  const activity =
    kind === "Create"
      ? // A Create always carries its article (publishChanges).
        createOf(object!, actor)
      : kind === "Update"
        ? new Update({ ...common, object, updated: object?.updated })
        : new Delete({ ...common, object: new Tombstone({ id }) });
  await ctx.sendActivity({ identifier: deps.handle }, "followers", activity, {
    preferSharedInbox: true,
    orderingKey: slug,
  });
}
