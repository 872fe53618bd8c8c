import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend, teaching } from "../support/fake-backend.mjs";
import { startIndependentInstance } from "../support/independent-instance.mjs";
import { startPostgres } from "../support/postgres.mjs";
import { startRecordingFront } from "../support/recording-front.mjs";
import { freePort, startSite } from "../support/site-process.mjs";
import { until } from "../support/until";

// The site followed from an ActivityPub server written elsewhere (activitypub.bot, from the npm registry;
// tests/support/independent-instance.mjs), which signs with RFC 9421 and verifies what it receives. The
// site runs on two origins sharing PostgreSQL behind one address, as an operator runs it: the Follow gets
// an Accept the other server trusts, a new article reaches the follower once, the site keeps its follower
// across a restart of an origin, and after the Undo nothing more is sent.

type Site = Awaited<ReturnType<typeof startSite>>;
type Instance = Awaited<ReturnType<typeof startIndependentInstance>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- activities as the other server hands them over
type Json = Record<string, any>;

const AP = "application/activity+json";

let postgres: Awaited<ReturnType<typeof startPostgres>>;
let backend: Awaited<ReturnType<typeof startFakeBackend>>;
let instance: Instance;
let front: Awaited<ReturnType<typeof startRecordingFront>>;
let siteUrl = "";
const origins: Site[] = [];
const content: Json[] = [teaching("first", "One.")];

const startOrigin = () =>
  startSite({
    FEDIVERSE: "on",
    SITE_URL: siteUrl,
    FEDIVERSE_HOSTS: instance.host,
    CATALOGUE_DATABASE_URL: postgres.url,
    CATALOGUE_SYNC: "on",
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    CACHE_FRESH_SECONDS: "1",
  });

const actorId = () => `${siteUrl}/ap/actor/zen`;
const followers = async () =>
  (await (await fetch(`${siteUrl}/ap/followers/zen`, { headers: { accept: AP } })).json()).totalItems as number;
/** The Creates of an article POSTed to the follower's server, each delivery counted. */
const createsOf = (slug: string) =>
  instance
    .delivered()
    .filter(
      (activity: Json | undefined) =>
        activity?.type === "Create" && JSON.stringify(activity.object).includes(`/ap/articles/${slug}`),
    );
/** Whether the follower's server handed a Create of the article to its bot (it took the delivery). */
const handedOver = (slug: string) =>
  instance.received.some(
    (activity) => activity.type === "Create" && JSON.stringify(activity.object).includes(`/ap/articles/${slug}`),
  );

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  postgres = await startPostgres();
  backend = await startFakeBackend({ content });
  instance = await startIndependentInstance({ databaseUrl: await postgres.createDatabase("independent") });
  const frontPort = await freePort();
  siteUrl = `http://127.0.0.1:${frontPort}`;
  // The address both origins answer at, taking turns, as a proxy in front of several origins does.
  front = await startRecordingFront({ port: frontPort, targets: () => origins.map((origin) => origin.url) });
  // One after the other: the first migrates the schema.
  origins.push(await startOrigin());
  origins.push(await startOrigin());
}, 90_000);

afterAll(async () => {
  await instance?.stop();
  await front?.close();
  await Promise.all(origins.map((origin) => origin.stop()));
  await backend?.close();
  await postgres?.stop();
});

describe("the site followed from an ActivityPub server written elsewhere", () => {
  it("accepts its RFC 9421-signed Follow with an Accept that server trusts", async () => {
    await instance.follow(actorId());
    await until("the Accept", async () => ((await instance.isFollowing(actorId())) ? true : undefined), 30_000);
    expect(await followers()).toBe(1);
    const follows = front.seen.filter((request) => request.method === "POST" && request.path.startsWith("/ap/inbox"));
    expect(follows.length).toBeGreaterThan(0);
    for (const request of follows) expect(request.headers["signature-input"], "signed with RFC 9421").toBeDefined();
  }, 60_000);

  it("hands the follower a new article once, as a Create of an Article, though two origins look for it", async () => {
    content.unshift(teaching("second", "Two."));
    const [create] = await until(
      "the Create",
      () => (createsOf("second").length ? createsOf("second") : undefined),
      30_000,
    );
    expect(create!.object).toMatchObject({ type: "Article", url: `${siteUrl}/blog/second`, name: "Teaching second" });
    await until("the Create taken by that server", () => (handedOver("second") ? true : undefined), 30_000);
    // Both origins look every second: time for a second Create, were one to be sent.
    await pause(4000);
    expect(createsOf("second")).toHaveLength(1);
  }, 60_000);

  it("keeps its follower when an origin restarts, and delivers the next article from either", async () => {
    await origins.shift()!.stop();
    origins.push(await startOrigin());
    expect(await followers()).toBe(1);
    content.unshift(teaching("third", "Three."));
    await until("the Create after the restart", () => createsOf("third")[0], 30_000);
    await pause(3000);
    expect(createsOf("third")).toHaveLength(1);
  }, 90_000);

  it("ends the following on the Undo, and sends nothing more", async () => {
    await instance.unfollow(actorId());
    await until("no follower", async () => ((await followers()) === 0 ? true : undefined), 30_000);
    content.unshift(teaching("fourth", "Four."));
    await until("the article in the outbox", async () => {
      const outbox = await fetch(`${siteUrl}/ap/outbox/zen`, { headers: { accept: AP } });
      return (await outbox.text()).includes("/ap/articles/fourth") ? true : undefined;
    });
    // Long enough for both origins to have seen the article and sent a Create, were there a follower.
    await pause(5000);
    expect(createsOf("fourth")).toHaveLength(0);
    expect(instance.contextsAsked, "contexts the other server had to look for").toEqual([]);
  }, 60_000);
});
