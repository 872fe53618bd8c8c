import {
  createFederation,
  exportJwk,
  generateCryptoKeyPair,
  importJwk,
  type Context,
  type KvStore,
  type MessageQueue,
} from "@fedify/fedify";
import {
  Accept,
  Article,
  Delete,
  Endpoints,
  Follow,
  Image,
  Organization,
  Undo,
  type Actor,
  type Recipient,
} from "@fedify/fedify/vocab";
import type { Blog } from "~/blog/blog.server";
import type { FediverseKind } from "~/counts/tally";
import { LOGO, SHARE_IMAGE } from "~/crawlers/share-image";
import { languageOf, type SiteSettings } from "~/site/config.server";
import { metrics } from "~/metrics/record.server";
import { articleObject, createOf } from "./article-object";
import { PATHS } from "./paths";
import { deliveryMeter } from "./delivery-meter";
import { checkedInbox, type OutgoingRule } from "./outgoing";
import { startPublisher } from "./publisher.server";

/** How NodeInfo and the User-Agent of the site's requests name it. */
export const SOFTWARE = { name: "buddhist-content-site", version: "1.0.0" } as const;

/** A follower as kept: its actor's address and where activities for it go. */
export type Follower = { id: string; inbox: string; sharedInbox?: string };

/** What the site's federation reads: its settings, its state, its articles, and what it may reach. */
export type FederationDeps = {
  site: SiteSettings & { siteUrl: string; fediverse: { handle: string } };
  kv: KvStore;
  blog: Pick<Blog, "newestArticles" | "article" | "articleTotal">;
  /** The domain the site's articles are asked for (its catalogue's). */
  domain: string;
  /** Which addresses requests may go to: public ones, and the hosts FEDIVERSE_HOSTS names. */
  outgoing: OutgoingRule;
  /** Where deliveries wait (./sqlite-queue.server.ts, ./pg-queue.server.ts). */
  queue: MessageQueue;
  /** Whether the site's catalogue still holds an article (its sync drops those the source no longer has). */
  stillListed(slug: string): Promise<boolean>;
  /** How often new and changed articles are looked for. */
  everyMs: number;
  /** Counts for the operator's report (app/counts): followers, follows, deliveries by outcome. */
  count(kind: FediverseKind, n?: number, day?: string): void;
  onError(error: unknown): void;
};

const FOLLOWERS = "followers";
const KEYS = "keys";

/**
 * The site as one actor of the social web (an Organization named by its handle), made with Fedify: WebFinger
 * and NodeInfo, the actor with its keys, the outbox of its newest articles, each article's ActivityPub form,
 * and an inbox that accepts a Follow, ends one on Undo, and forgets a follower whose actor is deleted.
 * Everything else that arrives is acknowledged and dropped. Fedify verifies each activity's signature
 * (draft-cavage and RFC 9421) against the key of its actor before a listener sees it.
 */
export function createSiteFederation(deps: FederationDeps) {
  const { site, kv, blog, domain, outgoing } = deps;
  const handle = site.fediverse.handle;
  const origin = site.siteUrl;
  const { lang, translator } = languageOf(site);
  const federation = createFederation<void>({
    kv,
    queue: deps.queue,
    // Started with the publisher (start below), not by the first request.
    manuallyStartQueue: true,
    meterProvider: deliveryMeter((outcome) => {
      metrics.fediverseDelivery(site.label, outcome);
      deps.count(`fediverse_${outcome}`);
    }),
    origin,
    // Only public addresses, or the listed hosts, for documents and keys (./outgoing.ts).
    documentLoaderFactory: () => outgoing.documentLoader,
    contextLoaderFactory: () => outgoing.contextLoader,
    authenticatedDocumentLoaderFactory: (identity) => outgoing.authenticatedLoader(identity),
  });

  /** The key pairs, read (or made) once: every actor document and every signature needs them. */
  let pairs: Promise<CryptoKeyPair[]> | undefined;
  const keyPairsOnce = () =>
    (pairs ??= keyPairs(kv).catch((error: unknown) => {
      // A store that failed is asked again next time.
      pairs = undefined;
      throw error;
    }));

  const articleAddresses = (ctx: Context<void>, slug: string) => ({
    id: ctx.getObjectUri(Article, { slug }),
    page: new URL(`/blog/${encodeURIComponent(slug)}`, origin),
    actor: ctx.getActorUri(handle),
    followers: ctx.getFollowersUri(handle),
    origin,
  });

  federation
    .setActorDispatcher(PATHS.actor, async (ctx, identifier) => {
      if (identifier !== handle) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Organization({
        id: ctx.getActorUri(identifier),
        preferredUsername: handle,
        name: site.siteName,
        summary: translator.t("meta.homeDescription", { product: site.product, site: site.siteName }),
        url: new URL("/", origin),
        icon: new Image({ url: new URL(LOGO.path, origin), mediaType: "image/png" }),
        image: new Image({ url: new URL(SHARE_IMAGE.path, origin), mediaType: "image/png" }),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
        indexable: true,
      });
    })
    .mapHandle((_ctx, username) => (username.toLowerCase() === handle ? handle : null))
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === handle ? keyPairsOnce() : []));

  federation
    .setOutboxDispatcher(PATHS.outbox, async (ctx, identifier) => {
      if (identifier !== handle) return null;
      const articles = await blog.newestArticles(domain);
      return {
        items: articles.map((article) =>
          createOf(articleObject(article, articleAddresses(ctx, article.slug), lang), ctx.getActorUri(handle)),
        ),
      };
    })
    .setCounter(async (_ctx, identifier) => (identifier === handle ? blog.articleTotal(domain) : null));

  federation.setObjectDispatcher(Article, PATHS.article, async (ctx, { slug }) => {
    const article = await blog.article(domain, slug).catch(() => null);
    return article ? articleObject(article, articleAddresses(ctx, slug), lang) : null;
  });

  federation
    .setFollowersDispatcher(PATHS.followers, async (_ctx, identifier) => {
      if (identifier !== handle) return null;
      return { items: (await followers(kv)).map(recipientOf) };
    })
    .setCounter(async (_ctx, identifier) => (identifier === handle ? (await followers(kv)).length : null));

  /**
   * Keeps a follower, and counts one that is new. Claimed by compare-and-swap, so that of two origins given
   * the same Follow (a server's retry), one counts it.
   */
  const keepFollower = async (kept: Follower) => {
    const current = await kv.get<Follower | null>([FOLLOWERS, kept.id]);
    if (!current && (await kv.cas!([FOLLOWERS, kept.id], current, kept))) deps.count("fediverse_follows");
    else await kv.set([FOLLOWERS, kept.id], kept);
  };
  /** Ends a following, counted by the one origin whose swap to null (then deletion) took it. */
  const unfollow = async (id: string) => {
    const current = await kv.get<Follower | null>([FOLLOWERS, id]);
    if (!current || !(await kv.cas!([FOLLOWERS, id], current, null))) return;
    await kv.delete([FOLLOWERS, id]);
    deps.count("fediverse_unfollows");
  };

  federation
    .setInboxListeners(PATHS.inbox, PATHS.sharedInbox)
    .on(
      Follow,
      acknowledged("Follow", async (ctx, follow) => {
        const parsed = follow.objectId && ctx.parseUri(follow.objectId);
        if (!parsed || parsed.type !== "actor" || parsed.identifier !== handle || !follow.actorId) return;
        const follower = await follow.getActor(ctx);
        if (!follower?.id || follower.id.href !== follow.actorId.href) return;
        const kept = await followerOf(follower, outgoing);
        if (!kept) return;
        await keepFollower(kept);
        await ctx.sendActivity(
          { identifier: handle },
          recipientOf(kept),
          new Accept({
            id: new URL(`#accept/${crypto.randomUUID()}`, ctx.getActorUri(handle)),
            actor: ctx.getActorUri(handle),
            object: follow,
          }),
          { immediate: true },
        );
      }),
    )
    .on(
      Undo,
      acknowledged("Undo", async (ctx, undo) => {
        // The follower that stops is the Undo's signed actor, as Mastodon reads it: the Follow inside may
        // leave its actor out (activitypub.bot does), but one that names another actor ends nothing.
        const object = await undo.getObject(ctx);
        if (!(object instanceof Follow) || !undo.actorId) return;
        if (object.actorId && object.actorId.href !== undo.actorId.href) return;
        const target = object.objectId && ctx.parseUri(object.objectId);
        if (object.objectId && (!target || target.type !== "actor" || target.identifier !== handle)) return;
        await unfollow(undo.actorId.href);
      }),
    )
    .on(
      Delete,
      acknowledged("Delete", async (_ctx, deleted) => {
        // An actor deleting itself (its own address as the object): it follows nothing any more.
        if (deleted.actorId && deleted.objectId?.href === deleted.actorId.href) await unfollow(deleted.actorId.href);
      }),
    );

  federation.setNodeInfoDispatcher(PATHS.nodeInfo, async () => ({
    software: { name: SOFTWARE.name, version: SOFTWARE.version },
    protocols: ["activitypub"],
    openRegistrations: false,
    usage: {
      users: { total: 1, activeHalfyear: 1, activeMonth: 1 },
      localPosts: await blog.articleTotal(domain).catch(() => 0),
      localComments: 0,
    },
  }));

  return {
    handle,
    federation,
    /** Delivers what waits in the queue, and looks for new, changed and removed articles, until `signal`. */
    start(signal: AbortSignal) {
      federation.startQueue(undefined, { signal }).catch(deps.onError);
      startPublisher(
        {
          federation,
          kv,
          blog,
          domain,
          handle,
          origin,
          objectOf: (article, updated) =>
            articleObject(
              article,
              articleAddresses(federation.createContext(new URL(origin), undefined), article.slug),
              lang,
              updated,
            ),
          stillListed: deps.stillListed,
          followersOfTheDay: async (day) => deps.count("fediverse_followers", (await followers(kv)).length, day),
          everyMs: deps.everyMs,
          onError: deps.onError,
        },
        signal,
      );
    },
    /** The site's answer to a request of the social web, or undefined when the request is for the pages. */
    async answer(request: Request): Promise<Response | undefined> {
      let passed = false;
      const response = await federation.fetch(request, {
        contextData: undefined,
        onNotFound: () => {
          passed = true;
          return new Response(null, { status: 404 });
        },
        onNotAcceptable: () => {
          passed = true;
          return new Response(null, { status: 406 });
        },
      });
      return passed ? undefined : response;
    },
  };
}

/**
 * A listener whose failure (an actor that cannot be fetched, an inbox that does not answer the Accept) is
 * logged in one line and acknowledged: a sender learns nothing from a 5xx, and retrying would not help.
 */
function acknowledged<C, A>(kind: string, listener: (ctx: C, activity: A) => Promise<void>) {
  return async (ctx: C, activity: A) => {
    try {
      await listener(ctx, activity);
    } catch (error) {
      console.warn(`Fediverse ${kind} not handled: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

/** The followers kept, in the order of their addresses. */
async function followers(kv: KvStore): Promise<Follower[]> {
  const found: Follower[] = [];
  // null: one being removed (unfollow, below).
  for await (const entry of kv.list([FOLLOWERS])) if (entry.value) found.push(entry.value as Follower);
  return found;
}

const recipientOf = (follower: Follower): Recipient => ({
  id: new URL(follower.id),
  inboxId: new URL(follower.inbox),
  endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null,
});

/** A follower to keep, when its inboxes are addresses the site may send to. */
async function followerOf(actor: Actor, outgoing: OutgoingRule): Promise<Follower | undefined> {
  if (!actor.id || !actor.inboxId) return undefined;
  const inbox = await checkedInbox(actor.inboxId, outgoing);
  if (!inbox) return undefined;
  const shared = actor.endpoints?.sharedInbox ? await checkedInbox(actor.endpoints.sharedInbox, outgoing) : undefined;
  return { id: actor.id.href, inbox: inbox.href, ...(shared && { sharedInbox: shared.href }) };
}

type StoredKeys = { privateKey: JsonWebKey; publicKey: JsonWebKey }[];

/**
 * The actor's two key pairs (RSA for draft-cavage signatures, as Mastodon checks them, and Ed25519 for
 * object proofs), made once and kept in the site's state; the first origin to make them wins, so every
 * origin signs with the same. The private keys never leave the server.
 */
async function keyPairs(kv: KvStore): Promise<CryptoKeyPair[]> {
  let stored = await kv.get<StoredKeys>([KEYS]);
  if (!stored) {
    const made = await Promise.all([generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), generateCryptoKeyPair("Ed25519")]);
    const exported = await Promise.all(
      made.map(async (pair) => ({
        privateKey: await exportJwk(pair.privateKey),
        publicKey: await exportJwk(pair.publicKey),
      })),
    );
    const won = kv.cas ? await kv.cas([KEYS], undefined, exported) : (await kv.set([KEYS], exported), true);
    stored = won ? exported : ((await kv.get<StoredKeys>([KEYS])) ?? exported);
  }
  return Promise.all(
    stored.map(async (pair) => ({
      privateKey: await importJwk(pair.privateKey, "private"),
      publicKey: await importJwk(pair.publicKey, "public"),
    })),
  );
}
