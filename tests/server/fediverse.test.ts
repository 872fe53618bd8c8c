import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend, teaching } from "../support/fake-backend.mjs";
import { startFakeInstance } from "../support/fake-fediverse.mjs";
import { startPostgres } from "../support/postgres.mjs";
import { serverRuns } from "../support/server-runs.mjs";
import { freePort, startSite, startSiteExpectingExit } from "../support/site-process.mjs";
import { until } from "../support/until";
import { SENDER_RATE } from "~/fediverse/endpoint.server";

// The site as an actor of the social web (FEDIVERSE=on, app/fediverse), on the production server, followed
// from a small instance written here with node:crypto alone (tests/support/fake-fediverse.mjs) that signs as
// Mastodon signs: the site is found by its handle, shows its newest articles as Articles, accepts a Follow
// with a signed Accept, ends it on Undo, keeps followers and keys across a restart, and takes generated
// hostile activities without a 5xx, a follower or a request to an address it may not reach.

type Site = Awaited<ReturnType<typeof startSite>>;
type Instance = Awaited<ReturnType<typeof startFakeInstance>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documents are read as other servers send them
type Json = Record<string, any>;

const HOST = "zen.example.org";
const SITE_URL = `https://${HOST}`;
const ACTOR = `${SITE_URL}/ap/actor/zen`;
const INBOX = `${SITE_URL}/ap/inbox/zen`;
const ARTICLES = readdirSync("content/blog").filter((file) => file.endsWith(".md")).length;
const AP = "application/activity+json";

const catalogueDir = mkdtempSync(path.join(tmpdir(), "fediverse-"));
let site: Site;
let instance: Instance;
/** A listener no test allows the site to reach: a request to it is a request to a private address. */
let trap: http.Server;
const trapped: string[] = [];
let trapOrigin = "";

/** GET of an address of a site (its SITE_URL's), on the test's server of that site. */
async function getOn(on: Site, address: string, accept = AP) {
  const url = new URL(address, SITE_URL);
  const response = await fetch(`${on.url}${url.pathname}${url.search}`, { headers: { host: HOST, accept } });
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  return {
    status: response.status,
    type,
    headers: response.headers,
    text,
    json: (type.includes("json") ? JSON.parse(text) : undefined) as Json,
  };
}
const get = (address: string, accept = AP) => getOn(site, address, accept);

/** How an instance finds the key of a site's signature: from the actor the site (as `on` gives it) shows. */
const keyOn = (on: () => Site) => async (keyId: string) => {
  const { json } = await getOn(on(), keyId);
  return json?.publicKey?.id === keyId ? (json.publicKey.publicKeyPem as string) : undefined;
};

const followBy = (from: Instance, actor = from.reader.id) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id: from.newId(),
  type: "Follow",
  actor,
  object: ACTOR,
});
const follow = (actor?: string) => followBy(instance, actor);

/** Follows the site from `from`'s reader, on `on`, and waits for the site's signed Accept. */
async function followAndAccept(from: Instance, on: Site) {
  const before = from.received.length;
  expect((await from.deliver(INBOX, followBy(from), { connectTo: on.url })).status).toBeLessThan(300);
  await until("the Accept", () =>
    from.received.slice(before).find((request) => request.body?.type === "Accept" && request.verified.ok),
  );
}

const undoOf = (activity: Json) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id: instance.newId(),
  type: "Undo",
  actor: activity.actor,
  object: activity,
});

const followerCount = async () => (await get(`${SITE_URL}/ap/followers/zen`)).json.totalItems as number;

const startFollowable = () =>
  startSite({ FEDIVERSE: "on", SITE_URL, FEDIVERSE_HOSTS: instance.host, CATALOGUE_DIR: catalogueDir });

beforeAll(async () => {
  instance = await startFakeInstance({ keyOf: keyOn(() => site) });
  trap = http.createServer((req, res) => {
    trapped.push(`${req.method} ${req.url}`);
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  trapOrigin = `http://127.0.0.1:${(trap.address() as { port: number }).port}`;
  site = await startFollowable();
}, 60_000);

afterAll(async () => {
  await site?.stop();
  await instance?.stop();
  await new Promise((resolve) => trap?.close(resolve));
  rmSync(catalogueDir, { recursive: true, force: true });
});

describe("a followable site", () => {
  it("is found by its handle: WebFinger, the actor in the site's words with its public key only, NodeInfo", async () => {
    const finger = await get(`/.well-known/webfinger?resource=acct:zen@${HOST}`, "application/jrd+json");
    expect(finger.status).toBe(200);
    expect(finger.json.links).toContainEqual(expect.objectContaining({ rel: "self", type: AP, href: ACTOR }));

    const actor = await get(ACTOR);
    expect(actor.status).toBe(200);
    expect(actor.json).toMatchObject({
      id: ACTOR,
      type: "Organization",
      preferredUsername: "zen",
      name: "Zen Buddhism",
      url: `${SITE_URL}/`,
      inbox: INBOX,
      outbox: `${SITE_URL}/ap/outbox/zen`,
      followers: `${SITE_URL}/ap/followers/zen`,
      endpoints: { sharedInbox: `${SITE_URL}/ap/inbox` },
      icon: { type: "Image", url: `${SITE_URL}/logo.png` },
      publicKey: { owner: ACTOR, publicKeyPem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----/) },
    });
    expect(actor.json.summary).toContain("Zen Buddhism");
    expect(actor.text).not.toMatch(/PRIVATE KEY|"d":|privateKey/);

    const nodeInfo = await get("/.well-known/nodeinfo", "application/json");
    const href = nodeInfo.json.links[0].href as string;
    expect(href).toBe(`${SITE_URL}/nodeinfo/2.1`);
    const info = await get(href, "application/json");
    expect(info.json).toMatchObject({ protocols: ["activitypub"], openRegistrations: false });
    expect(info.json.usage.localPosts).toBe(ARTICLES);
  });

  it("answers no other handle, and a browser's request for the actor gets the site's 404 page", async () => {
    expect((await get(`/.well-known/webfinger?resource=acct:other@${HOST}`, "application/jrd+json")).status).toBe(404);
    expect(
      (await get(`/.well-known/webfinger?resource=acct:zen@elsewhere.example`, "application/jrd+json")).status,
    ).toBe(404);
    const page = await get(ACTOR, "text/html");
    expect(page.status).toBe(404);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.text).toContain("Page not found");
  });

  it("shows its newest articles in its outbox as Create activities of Articles, each also at its own address", async () => {
    const outbox = await get(`${SITE_URL}/ap/outbox/zen`);
    expect(outbox.json.totalItems).toBe(ARTICLES);
    const items = outbox.json.orderedItems as Json[];
    expect(items.length).toBeGreaterThan(0);
    for (const create of items) {
      expect(create).toMatchObject({ type: "Create", actor: ACTOR, to: "as:Public" });
      const article = create.object as Json;
      const slug = /\/ap\/articles\/([^/#?]+)$/.exec(article.id)?.[1];
      expect(slug, article.id).toBeTruthy();
      expect(article).toMatchObject({ type: "Article", attributedTo: ACTOR, url: `${SITE_URL}/blog/${slug}` });
      expect(article.name).toEqual(expect.any(String));
      // As Mastodon shows it: the content is the post, with the url after it; a summary would be a content warning.
      expect(article.contentMap.en).toBe(article.content);
      const text = (html: string) =>
        html.replace(
          /&(apos|quot|lt|gt|amp);/g,
          (_, name: string) => ({ apos: "'", quot: '"', lt: "<", gt: ">", amp: "&" })[name]!,
        );
      expect(text(article.content)).toContain(`<strong>${article.name}</strong>`);
      expect(article).not.toHaveProperty("summary");
      for (const tag of [article.tag].flat().filter(Boolean)) {
        expect(tag).toMatchObject({ type: "Hashtag", name: expect.stringMatching(/^#[\p{L}\p{N}\p{M}_]+$/u) });
      }
      const own = await get(article.id);
      expect(own.status).toBe(200);
      expect(own.json).toMatchObject({ id: article.id, type: "Article", name: article.name, url: article.url });
    }
    expect((await get(`${SITE_URL}/ap/articles/no-such-article`)).status).toBe(404);
  });

  it("points servers from an article's page to its Article, by the Link header Mastodon reads", async () => {
    const page = await get(`${SITE_URL}/blog/a-day-at-sesshin`, "text/html");
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const link = page.headers.get("link") ?? "";
    expect(link).toBe(`<${SITE_URL}/ap/articles/a-day-at-sesshin>; rel="alternate"; type="application/activity+json"`);
    const article = await get(/<([^>]+)>/.exec(link)![1]!);
    expect(article.json).toMatchObject({ type: "Article", url: `${SITE_URL}/blog/a-day-at-sesshin` });
  });

  it("accepts a signed Follow with an Accept signed by its own key, and Undo ends it", async () => {
    const before = instance.received.length;
    const activity = follow();
    const sent = await instance.deliver(INBOX, activity, { connectTo: site.url });
    expect(sent.status, sent.text).toBeLessThan(300);
    // Fedify knocks first with an RFC 9421 signature, which this instance refuses (401) as a Mastodon that reads
    // only draft-cavage would; the Accept that counts is the one signed as Mastodon checks, by the key the site's actor shows.
    const accept = await until("an Accept with a valid draft-cavage signature", () =>
      instance.received.slice(before).find((request) => request.body?.type === "Accept" && request.verified.ok),
    );
    expect(accept.verified).toEqual({ ok: true, keyId: expect.stringMatching(new RegExp(`^${ACTOR}#`)) });
    expect(accept.path).toBe("/users/reader/inbox");
    expect(accept.body).toMatchObject({ actor: ACTOR });
    expect([accept.body.object, accept.body.object?.id]).toContain(activity.id);
    expect(await followerCount()).toBe(1);

    expect((await instance.deliver(INBOX, undoOf(activity), { connectTo: site.url })).status).toBeLessThan(300);
    // The inbox hands activities to the queue: the Undo takes effect a moment later.
    await until("no follower", async () => ((await followerCount()) === 0 ? true : undefined));
  });

  it("ends a following only on its follower's own Undo, whether or not the Follow inside names its actor", async () => {
    const activity = follow();
    expect((await instance.deliver(INBOX, activity, { connectTo: site.url })).status).toBeLessThan(300);
    await until("one follower", async () => ((await followerCount()) === 1 ? true : undefined));

    const other = instance.actorOf("other");
    instance.serveActor("other", other);
    const undoByOther = { ...undoOf(activity), actor: other.id };
    const sent = await instance.deliver(INBOX, undoByOther, { connectTo: site.url, keyId: other.publicKey.id });
    expect(sent.status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await followerCount()).toBe(1);

    // As activitypub.bot sends it: the Follow by its id and object only; the Undo's signer is the follower.
    const { actor: _left, ...withoutActor } = activity;
    await instance.deliver(INBOX, { ...undoOf(activity), object: withoutActor }, { connectTo: site.url });
    await until("no follower", async () => ((await followerCount()) === 0 ? true : undefined));
  });

  it("keeps its followers and its keys across a restart", async () => {
    const keyBefore = (await get(ACTOR)).json.publicKey.publicKeyPem;
    const activity = follow();
    expect((await instance.deliver(INBOX, activity, { connectTo: site.url })).status).toBeLessThan(300);
    await until("one follower", async () => ((await followerCount()) === 1 ? true : undefined));
    await site.stop();
    site = await startFollowable();
    expect((await get(ACTOR)).json.publicKey.publicKeyPem).toBe(keyBefore);
    expect(await followerCount()).toBe(1);
    await instance.deliver(INBOX, undoOf(activity), { connectTo: site.url });
    await until("no follower", async () => ((await followerCount()) === 0 ? true : undefined));
  });

  it("refuses a follower whose inbox is an address it may not reach, and sends nothing there", async () => {
    const name = "elsewhere";
    const actor = {
      ...instance.actorOf(name),
      inbox: `${trapOrigin}/inbox`,
      endpoints: { sharedInbox: `${trapOrigin}/shared` },
    };
    instance.serveActor(name, actor);
    const sent = await instance.deliver(INBOX, follow(actor.id), { connectTo: site.url, keyId: actor.publicKey.id });
    expect(sent.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(trapped).toEqual([]);
    expect(await followerCount()).toBe(0);
  });

  it("takes any generated activity, signed or not, with no 5xx, no follower, and no request but to the sender's own instance", async () => {
    const base = await followerCount();
    const received = instance.received.length;
    const actors = [instance.reader.id, `${trapOrigin}/users/x`, "https://10.0.0.1/users/x", ACTOR, "not a url"];
    const objects = [
      ACTOR,
      `${SITE_URL}/ap/articles/a-day-at-sesshin`,
      `${trapOrigin}/note`,
      { type: "Note", content: "<script>x</script>" },
      null,
    ];
    const activity = fc.record(
      {
        "@context": fc.constantFrom("https://www.w3.org/ns/activitystreams", "https://evil.invalid/context", 5),
        id: fc.oneof(fc.constant(`${instance.origin}/activities/x`), fc.webUrl(), fc.string()),
        // Follow only from actors the site may not accept: another instance's, itself, or not an actor at all.
        type: fc.constantFrom(
          "Create",
          "Like",
          "Announce",
          "Update",
          "Delete",
          "Undo",
          "Note",
          "Move",
          "Flag",
          "Block",
          "Add",
          "Follow",
        ),
        actor: fc.constantFrom(...actors),
        object: fc.oneof(fc.constantFrom(...objects), fc.jsonValue({ maxDepth: 2 })),
        to: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ["type"] },
    );
    const how = fc.constantFrom("unsigned", "signed", "wrong key", "garbage body");
    // As if from many instances behind the proxy: one address would soon be over its rate (429 is not a 5xx).
    const sender = fc.ipV4();
    await fc.assert(
      fc.asyncProperty(activity, how, sender, async (generated, manner, address) => {
        // A signed Follow of the site by the reader is the one activity that makes a follower: left out here.
        if (manner === "signed" && generated.type === "Follow" && generated.actor === instance.reader.id) return;
        const body =
          manner === "garbage body" ? `{"type":"Follow",${JSON.stringify(generated).slice(1, 40)}` : generated;
        const sent = await instance.deliver(INBOX, body as object, {
          connectTo: site.url,
          sign: manner !== "unsigned",
          keyId: manner === "wrong key" ? `${instance.origin}/users/other#main-key` : instance.reader.publicKey.id,
          extraHeaders: { "x-forwarded-for": address },
        });
        expect(sent.status, JSON.stringify(generated)).toBeLessThan(500);
      }),
      { numRuns: serverRuns(120) },
    );
    expect(await followerCount()).toBe(base);
    expect(trapped).toEqual([]);
    expect(instance.received.slice(received).filter((request) => request.body?.type === "Accept")).toEqual([]);
  });

  it("refuses an activity over 64 KB with 413 before reading it all", async () => {
    const big = { ...follow(), padding: "x".repeat(70 * 1024) };
    const sent = await instance.deliver(INBOX, big, {
      connectTo: site.url,
      extraHeaders: { "x-forwarded-for": "192.0.2.9" },
    });
    expect(sent.status).toBe(413);
    expect(await followerCount()).toBe(0);
  });

  // Last of the site's tests: it spends the instance's deliveries for the next few seconds.
  it("takes a sending server's deliveries at its own rate, from however many addresses, and charges none it did not send", async () => {
    const like = (actor = instance.reader.id) => ({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: instance.newId(),
      type: "Like",
      actor,
      object: ACTOR,
    });
    let address = 0;
    // Each from an address of its own, so only the limit per sending server can refuse them.
    const from = () => ({ "x-forwarded-for": `10.${(address >> 8) & 255}.${address++ & 255}.1` });
    const sendAll = async (count: number, send: () => Promise<{ status: number }>) => {
      const statuses: number[] = [];
      while (statuses.length < count) {
        statuses.push(...(await Promise.all(Array.from({ length: 10 }, send))).map((sent) => sent.status));
      }
      return statuses;
    };

    // More than the server's burst, naming its actor but signed by another's key: refused, and not charged.
    const forged = await sendAll(SENDER_RATE.burst + 20, () =>
      instance.deliver(INBOX, like(), {
        connectTo: site.url,
        keyId: `${instance.origin}/users/other#main-key`,
        extraHeaders: from(),
      }),
    );
    expect(new Set(forged)).toEqual(new Set([401]));

    const statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < 3 * SENDER_RATE.burst) {
      statuses.push(
        ...(await sendAll(10, () => instance.deliver(INBOX, like(), { connectTo: site.url, extraHeaders: from() }))),
      );
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status < 300).length).toBeGreaterThanOrEqual(SENDER_RATE.burst);
    // Another server's actor is not refused for it: unsigned, it gets the 401 any unsigned activity gets.
    const elsewhere = await instance.deliver(INBOX, like("https://elsewhere.example/users/a"), {
      connectTo: site.url,
      sign: false,
      extraHeaders: from(),
    });
    expect(elsewhere.status).toBe(401);
  });
});

describe("a site without FEDIVERSE=on", () => {
  it("has no actor: WebFinger and the actor's address are the site's 404 page", async () => {
    const plain = await startSite({ SITE_URL });
    try {
      for (const address of [`/.well-known/webfinger?resource=acct:zen@${HOST}`, "/ap/actor/zen", "/nodeinfo/2.1"]) {
        const response = await fetch(`${plain.url}${address}`, { headers: { host: HOST, accept: AP } });
        expect(response.status, address).toBe(404);
        expect(response.headers.get("content-type"), address).toMatch(/^text\/html/);
      }
      const page = await fetch(`${plain.url}/blog/a-day-at-sesshin`, { headers: { host: HOST } });
      expect(page.status).toBe(200);
      expect(page.headers.get("link")).toBeNull();
      const inbox = await fetch(`${plain.url}/ap/inbox/zen`, { method: "POST", headers: { host: HOST }, body: "{}" });
      expect(inbox.status).toBe(405);
    } finally {
      await plain.stop();
    }
  });

  it("will not start with FEDIVERSE=on and no SITE_URL, and says so in one line", async () => {
    const { code, output } = await startSiteExpectingExit({ FEDIVERSE: "on" });
    expect(code).toBe(1);
    const problems = output.split("\n").filter((line) => line.startsWith("  - "));
    expect(problems).toEqual([expect.stringMatching(/SITE_URL is required when FEDIVERSE is on/)]);
  });
});

describe("a followable site's new articles", () => {
  const deliveryDir = mkdtempSync(path.join(tmpdir(), "fediverse-delivery-"));
  let metricsPort = 0;
  let inboxUp = true;
  let publisher: Site;
  let follower: Instance;
  let backend: Awaited<ReturnType<typeof startFakeBackend>>;
  /** The backend's articles, newest first: a test publishes, changes and removes them while the site runs. */
  const content: Json[] = [1, 2, 3].map((n) => teaching(`older-teaching-${n}`, "An older teaching."));

  const startPublisher = () =>
    startSite({
      FEDIVERSE: "on",
      SITE_URL,
      FEDIVERSE_HOSTS: follower.host,
      CATALOGUE_DIR: deliveryDir,
      CATALOGUE_SYNC: "on",
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      CACHE_FRESH_SECONDS: "1",
      METRICS_PORT: String(metricsPort),
    });
  /** The deliveries counted by outcome, and the queue's length, as Prometheus reads them. */
  const deliveryMetrics = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    return {
      delivered: value(/^content_site_fediverse_deliveries_total\{site="default",outcome="delivered"\} (\d+)/m),
      failed: value(/^content_site_fediverse_deliveries_total\{site="default",outcome="failed"\} (\d+)/m),
      queued: /^content_site_fediverse_queue_messages\{site="default"\} \d+/m.test(text),
      perHost: /fediverse[^\n]*127\.0\.0\.1/.test(text),
    };
  };
  /** The activities of `type` for `slug` that reached the follower's shared inbox with a valid signature. */
  const delivered = (type: string, slug: string) =>
    follower.received.filter(
      (request) =>
        request.path === "/inbox" &&
        request.verified.ok &&
        request.body?.type === type &&
        String(request.body?.object?.id ?? request.body?.object).endsWith(`/ap/articles/${slug}`),
    );
  const tried = (type: string, slug: string) =>
    follower.received.filter(
      (request) => request.body?.type === type && String(request.body?.object?.id).endsWith(`/ap/articles/${slug}`),
    );

  beforeAll(async () => {
    backend = await startFakeBackend({ content });
    metricsPort = await freePort();
    follower = await startFakeInstance({
      keyOf: keyOn(() => publisher),
      inboxStatus: () => (inboxUp ? 202 : 503),
    });
    publisher = await startPublisher();
    await followAndAccept(follower, publisher);
  }, 60_000);

  afterAll(async () => {
    await publisher?.stop();
    await follower?.stop();
    await backend?.close();
    rmSync(deliveryDir, { recursive: true, force: true });
  });

  it("go to each follower's shared inbox once as a Create, a change as an Update, a removal as a Delete", async () => {
    content.unshift(teaching("a-new-teaching", "First words."));
    const create = await until("the Create", () => delivered("Create", "a-new-teaching")[0], 30_000);
    expect(create.body.object).toMatchObject({
      type: "Article",
      url: `${SITE_URL}/blog/a-new-teaching`,
      name: "Teaching a-new-teaching",
    });
    // Nothing was sent for the articles there were when federation was turned on.
    expect(follower.received.filter((request) => request.body?.type === "Create")).toHaveLength(
      tried("Create", "a-new-teaching").length,
    );

    content[0]!.metaDescription = "Changed words.";
    const update = await until("the Update", () => delivered("Update", "a-new-teaching")[0], 30_000);
    expect(update.body.object.content).toContain("Changed words.");
    // Mastodon edits its post only when the object says when it was updated.
    expect(Date.parse(update.body.object.updated)).toBeGreaterThan(Date.parse(update.body.object.published));

    content.shift();
    await until("the Delete", () => delivered("Delete", "a-new-teaching")[0], 40_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const type of ["Create", "Update", "Delete"]) expect(delivered(type, "a-new-teaching"), type).toHaveLength(1);
    const counted = await deliveryMetrics();
    // The Accept and the three activities were delivered.
    expect(counted.delivered).toBeGreaterThanOrEqual(4);
    expect(counted.queued, "the queue's gauge").toBe(true);
    expect(counted.perHost, "no series names a follower's host").toBe(false);

    // The operator's report: the follower who came, and the deliveries (each process writes every 5 s).
    const report = () => fetch(`http://127.0.0.1:${metricsPort}/report?days=7`).then((answer) => answer.text());
    const deliveredInReport = async () => Number(/Delivered\s*<b>(\d+)<\/b>/.exec(await report())?.[1] ?? 0);
    await until(
      "the four deliveries in the report",
      async () => ((await deliveredInReport()) >= 4 ? true : undefined),
      20_000,
    );
    expect(await report()).toMatch(/New\s*<b>1<\/b>/);
  }, 120_000);

  it("are not lost when the process stops while the follower's server is down", async () => {
    inboxUp = false;
    content.unshift(teaching("while-down", "Sent later."));
    await until("a first try", () => tried("Create", "while-down")[0], 30_000);
    await until("the failed try counted", async () => ((await deliveryMetrics()).failed > 0 ? true : undefined));
    await publisher.stop();
    inboxUp = true;
    publisher = await startPublisher();
    const create = await until("the Create after the restart", () => delivered("Create", "while-down")[0], 90_000);
    expect(create.body.object.url).toBe(`${SITE_URL}/blog/while-down`);
  }, 150_000);
});

describe("a followable site on two origins sharing PostgreSQL", () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let backend: Awaited<ReturnType<typeof startFakeBackend>>;
  let follower: Instance;
  const origins: Site[] = [];
  const content: Json[] = [
    { id: "first", slug: "first", metaTitle: "First", metaDescription: "One.", date: "2026-11-01", blog: "Words." },
  ];

  beforeAll(async () => {
    postgres = await startPostgres();
    backend = await startFakeBackend({ content });
    follower = await startFakeInstance({
      keyOf: keyOn(() => origins[0]!),
    });
    const env = {
      FEDIVERSE: "on",
      SITE_URL,
      FEDIVERSE_HOSTS: follower.host,
      CATALOGUE_DATABASE_URL: postgres.url,
      CATALOGUE_SYNC: "on",
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      CACHE_FRESH_SECONDS: "1",
    };
    // One after the other: the first migrates the schema.
    origins.push(await startSite(env));
    origins.push(await startSite(env));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(origins.map((origin) => origin.stop()));
    await follower?.stop();
    await backend?.close();
    await postgres?.stop();
  });

  it("sign with one key, share their followers, and send a new article's Create exactly once", async () => {
    const keys = await Promise.all(
      origins.map(async (origin) => (await getOn(origin, ACTOR)).json.publicKey.publicKeyPem),
    );
    expect(keys[1]).toBe(keys[0]);
    await followAndAccept(follower, origins[0]!);
    expect((await getOn(origins[1]!, `${SITE_URL}/ap/followers/zen`)).json.totalItems).toBe(1);

    content.unshift({
      id: "second",
      slug: "second",
      metaTitle: "Second",
      metaDescription: "Two.",
      date: "2026-11-02",
      blog: "Words.",
    });
    const creates = () =>
      follower.received.filter(
        (request) =>
          request.verified.ok &&
          request.body?.type === "Create" &&
          String(request.body.object?.id).endsWith("/ap/articles/second"),
      );
    await until("the Create", () => creates()[0], 30_000);
    // Both origins look every second: give the other time to send a second one, if it would.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(creates()).toHaveLength(1);
  }, 90_000);
});
