// An ActivityPub server written elsewhere, to follow the site from: activitypub.bot (@evanp/activitypub-bot,
// from the npm registry), run in the test's process with one bot, `reader`, that keeps the public activities
// it receives. It signs its requests with RFC 9421 first and falls back to draft-cavage only when refused,
// and it verifies the signatures of what it receives, so the site is judged by code that is not its own.
//
// The registry holds one version of it (0.51.2), which asks for activitystrea.ms 4, and the registry's
// newest activitystrea.ms is 3.1.0 (package.json overrides the range). 3.1.0 lacks two functions the bot
// calls, given here as 4 defines them: `registerContext`, and `isActivity` on its objects.
// Its JSON-LD loader fetches contexts it does not know from the internet, which tests never reach: it gets
// the contexts Fedify carries and refuses any other, and `contextsAsked` says which were asked for.
import { createRequire } from "node:module";
import { preloadedContexts } from "@fedify/fedify/runtime";
import { startRecordingFront } from "./recording-front.mjs";
import { freePort } from "./site-process.mjs";

const require = createRequire(import.meta.url);
const as2 = require("activitystrea.ms");
const vocabulary = require("vocabs-as");
const Loader = require("activitystrea.ms/src/contextloader");
const Base = require("activitystrea.ms/src/models/_base");
const reasoner = require("activitystrea.ms/src/reasoner");

const contexts = Loader.defaultInstance;
const contextsAsked = [];
as2.registerContext ??= (url, context) => contexts.register(url, context);
Base.prototype.isActivity ??= function isActivity() {
  return [this.type ?? []].flat().some((type) => reasoner.node(type).is(vocabulary.Activity));
};
for (const [url, document] of Object.entries(preloadedContexts)) {
  if (!contexts.get(url)) contexts.register(url, document);
}
const knownOnly = contexts.makeDocLoader.bind(contexts);
contexts.makeDocLoader = () => {
  const load = knownOnly();
  return async (url) => {
    if (contexts.get(url)) return load(url);
    contextsAsked.push(url);
    throw new Error(`${url} is not a context this test knows`);
  };
};

const { Bot, makeApp } = await import("@evanp/activitypub-bot");

class Reader extends Bot {
  /** @type {Record<string, any>[]} */
  received = [];
  async onPublic(activity) {
    this.received.push(await activity.export());
  }
}

/**
 * Starts the server on a free loopback port, its data in PostgreSQL at `databaseUrl`.
 * @param {{ databaseUrl: string }} options
 */
export async function startIndependentInstance({ databaseUrl }) {
  // Its address is a recording front's, so that a test counts what it was sent, not only what it kept: it
  // drops an activity whose id it has seen.
  const [port, inner] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${port}`;
  const reader = new Reader("reader");
  const app = await makeApp({
    databaseUrl,
    origin,
    bots: { reader },
    logLevel: process.env.INSTANCE_LOG ?? "silent",
    // Its instances on loopback are private addresses, which it refuses by default.
    allowPrivateNetworkRequests: true,
    deliveryWorkerCount: 1,
    distributionWorkerCount: 1,
    fanoutWorkerCount: 1,
    intakeWorkerCount: 1,
  });
  const server = await new Promise((resolve) => {
    const listening = app.listen(inner, "127.0.0.1", () => resolve(listening));
  });
  const front = await startRecordingFront({ port, targets: () => [`http://127.0.0.1:${inner}`] });
  const context = () => reader._context;
  return {
    origin,
    host: `127.0.0.1:${port}`,
    actorId: `${origin}/user/reader`,
    /** The public activities the reader was handed, as the server hands them to its bots (each id once). */
    received: reader.received,
    /** The activities POSTed to the server's inboxes, each as sent, duplicates included. */
    delivered: () =>
      front.seen
        .filter((request) => request.method === "POST" && /inbox/.test(request.path))
        .map((request) => {
          try {
            return JSON.parse(request.body.toString("utf8"));
          } catch {
            return undefined;
          }
        }),
    contextsAsked,
    async follow(actorId) {
      await context().followActor(await context().getObject(actorId));
    },
    async unfollow(actorId) {
      await context().unfollowActor(await context().getObject(actorId));
    },
    async isFollowing(actorId) {
      return context().isFollowing({ id: actorId });
    },
    async stop() {
      await front.close();
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections?.();
      await app.cleanup();
    },
  };
}
