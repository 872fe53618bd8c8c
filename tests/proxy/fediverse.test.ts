// The social web's requests through nginx with docs/nginx.conf in front of two origins, as an operator
// runs a followable site: WebFinger, the actor and the outbox reach an origin with their Accept header and
// are never answered from nginx's cache, a browser asking for the same addresses gets the pages, and a
// Follow signed as Mastodon signs keeps its signature through nginx (Host and path unchanged).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFakeInstance } from "../support/fake-fediverse.mjs";
import { nginxMissing } from "../support/nginx.mjs";
import { until } from "../support/until";
import { useStack } from "./support/stack";

const HOST = "chan.example.test";
const SITE_URL = `https://${HOST}`;
const ACTOR = `${SITE_URL}/ap/actor/chan`;
const AP = "application/activity+json";

describe.skipIf(nginxMissing)("the social web through nginx", () => {
  let instance: Awaited<ReturnType<typeof startFakeInstance>>;
  /** A GET of a site address through nginx, with the site's Host. */
  const viaNginx = async (address: string, accept: string) => {
    const url = new URL(address, SITE_URL);
    const response = await fetch(`${running().nginx.url}${url.pathname}${url.search}`, {
      headers: { host: HOST, accept },
    });
    return {
      status: response.status,
      type: response.headers.get("content-type") ?? "",
      cache: response.headers.get("x-cache-status") ?? "",
      text: await response.text(),
    };
  };

  beforeAll(async () => {
    instance = await startFakeInstance({
      keyOf: async (keyId: string) => {
        const actor = JSON.parse((await viaNginx(keyId, AP)).text);
        return actor?.publicKey?.id === keyId ? (actor.publicKey.publicKeyPem as string) : undefined;
      },
    });
  });
  afterAll(() => instance?.stop());
  // The fake instance listens on loopback, on a port not known yet: every loopback port is allowed.
  const running = useStack({ origin: { FEDIVERSE: "on", FEDIVERSE_HOSTS: "127.0.0.1" } });

  test("WebFinger, the actor and the outbox reach an origin each time, with their Accept, and a browser gets the pages", async () => {
    // A browser first: its page for the actor's address must not be what servers get afterwards.
    const browser = await viaNginx(ACTOR, "text/html,application/xhtml+xml");
    expect(browser.type).toMatch(/^text\/html/);
    expect(browser.text).not.toContain('"publicKeyPem"');
    const addresses: [string, string][] = [
      [`/.well-known/webfinger?resource=acct:chan@${HOST}`, "application/jrd+json"],
      [ACTOR, AP],
      [`${SITE_URL}/ap/outbox/chan`, 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"'],
    ];
    for (const [address, accept] of addresses) {
      for (const time of [1, 2]) {
        const answer = await viaNginx(address, accept);
        expect(answer.status, `${address} (${time})`).toBe(200);
        expect(answer.type, address).toMatch(/json/);
        expect(answer.cache, `${address} is not answered from the cache`).not.toMatch(/HIT|STALE|UPDATING/);
      }
    }
    expect((await viaNginx(ACTOR, "text/html")).type).toMatch(/^text\/html/);
  });

  test("a Follow signed as Mastodon signs keeps its signature through nginx and gets a signed Accept", async () => {
    const follow = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: instance.newId(),
      type: "Follow",
      actor: instance.reader.id,
      object: ACTOR,
    };
    const sent = await instance.deliver(`${SITE_URL}/ap/inbox/chan`, follow, { connectTo: running().nginx.url });
    expect(sent.status, sent.text).toBe(202);
    await until(
      "the signed Accept",
      () => instance.received.find((request) => request.body?.type === "Accept" && request.verified.ok),
      20_000,
    );
  });
});
