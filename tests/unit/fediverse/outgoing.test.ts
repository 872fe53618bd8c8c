import http from "node:http";
import { FetchError } from "@fedify/fedify/runtime";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outgoingRule } from "~/fediverse/outgoing";

// What the site reads from other servers (actors, keys, activities by address): within a byte and a time
// limit, only from public addresses or the listed hosts, redirects checked at each hop. A server on loopback
// plays the other server; a second one, not listed, is an address the site may not reach.

const LIMITS = { maxBytes: 64 * 1024, timeoutMs: 800, maxRedirects: 2 };
const AP = "application/activity+json";
const ACTOR = { "@context": "https://www.w3.org/ns/activitystreams", id: "x", type: "Person", name: "Reader" };

type Answer = { status: number; type?: string; body: string | Buffer; headers?: Record<string, string> };
/** What the listed server answers for a path; set by each test. */
let answerFor: (path: string) => Answer | "stream forever" | "never answer" = () => ({ status: 404, body: "" });
const requests: { method: string; path: string; headers: http.IncomingHttpHeaders }[] = [];
let listed: http.Server;
let unlisted: http.Server;
let listedOrigin = "";
let unlistedOrigin = "";
const unlistedHits: string[] = [];

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
  );

beforeAll(async () => {
  listed = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const answer = answerFor(req.url ?? "/");
    if (answer === "never answer") return;
    if (answer === "stream forever") {
      res.writeHead(200, { "content-type": "application/activity+json" });
      const more = () => res.write(Buffer.alloc(16 * 1024, 32), () => setImmediate(more));
      res.on("error", () => {});
      return more();
    }
    res.writeHead(answer.status, { ...(answer.type ? { "content-type": answer.type } : {}), ...answer.headers });
    res.end(answer.body);
  });
  unlisted = http.createServer((req, res) => {
    unlistedHits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/activity+json" }).end(JSON.stringify(ACTOR));
  });
  listedOrigin = await listen(listed);
  unlistedOrigin = await listen(unlisted);
});

afterAll(async () => {
  listed.closeAllConnections();
  await new Promise((resolve) => listed.close(resolve));
  await new Promise((resolve) => unlisted.close(resolve));
});

const rule = () => outgoingRule([new URL(listedOrigin).host], "test-agent/1", LIMITS);
const load = (path: string) => rule().documentLoader(`${listedOrigin}${path}`);
const json = (value: unknown): Answer => ({
  status: 200,
  type: "application/activity+json",
  body: JSON.stringify(value),
});

describe("documents from other servers", () => {
  it("reads an actor from a listed host, and follows a redirect within the limit", async () => {
    answerFor = (path) =>
      path === "/moved" ? { status: 301, body: "", headers: { location: "/actor" } } : json(ACTOR);
    expect((await load("/moved")).document).toMatchObject({ name: "Reader" });
  });

  it("refuses an address it may not reach, directly or through a redirect, without a request to it", async () => {
    await expect(rule().documentLoader(`${unlistedOrigin}/actor`)).rejects.toBeInstanceOf(FetchError);
    answerFor = () => ({ status: 302, body: "", headers: { location: `${unlistedOrigin}/actor` } });
    await expect(load("/elsewhere")).rejects.toBeInstanceOf(FetchError);
    answerFor = () => ({ status: 302, body: "", headers: { location: "/again" } });
    await expect(load("/loop")).rejects.toThrow(/too many redirects/);
    expect(unlistedHits).toEqual([]);
  });

  it("stops reading at the byte limit and at the time limit", async () => {
    answerFor = () => ({ ...json({ ...ACTOR, padding: "x".repeat(LIMITS.maxBytes) }) });
    await expect(load("/big")).rejects.toThrow(/byte limit/);
    answerFor = () => "stream forever";
    await expect(load("/endless")).rejects.toBeInstanceOf(FetchError);
    answerFor = () => "never answer";
    const started = Date.now();
    await expect(load("/silent")).rejects.toBeInstanceOf(FetchError);
    expect(Date.now() - started).toBeLessThan(LIMITS.timeoutMs * 4);
  });

  it("follows an alternate once, within the same time: pages pointing to each other end", async () => {
    answerFor = (path) => ({
      status: 200,
      type: "text/html",
      body: "<html></html>",
      headers: {
        link: `<${listedOrigin}${path === "/a" ? "/b" : "/a"}>; rel="alternate"; type="application/activity+json"`,
      },
    });
    const before = requests.length;
    await expect(load("/a")).rejects.toThrow(/too many alternates/);
    expect(requests.length - before).toBe(2);
    answerFor = (path) =>
      path === "/page"
        ? { status: 200, type: "text/html", body: "", headers: { link: `</actor>; rel="alternate"; type="${AP}"` } }
        : json(ACTOR);
    expect((await load("/page")).document).toMatchObject({ name: "Reader" });
  });

  it("reads nothing of an error's body, however large", async () => {
    answerFor = () => ({ status: 404, type: "text/html", body: "x".repeat(LIMITS.maxBytes * 4) });
    await expect(load("/missing")).rejects.toThrow(/404/);
  });

  it("signs a request as Mastodon's authorized fetch checks, with the site's key id", async () => {
    const pair = (await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    answerFor = () => json(ACTOR);
    const keyId = new URL("https://zen.example.org/ap/actor/zen#main-key");
    await rule().authenticatedLoader({ keyId, privateKey: pair.privateKey })(`${listedOrigin}/actor`);
    const { method, path, headers } = requests.at(-1)!;
    const fields: Record<string, string> = Object.fromEntries(
      [...String(headers.signature).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]),
    );
    expect(fields.keyId).toBe(keyId.href);
    // The string signed, as draft-cavage builds it from the headers it names, verified with the public key.
    const signed = fields
      .headers!.split(" ")
      .map(
        (name: string) => `${name}: ${name === "(request-target)" ? `${method.toLowerCase()} ${path}` : headers[name]}`,
      )
      .join("\n");
    const valid = await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      pair.publicKey,
      Buffer.from(fields.signature!, "base64"),
      new TextEncoder().encode(signed),
    );
    expect(valid).toBe(true);
  });

  it("gives a document or a FetchError for any answer a server may give, never another error", async () => {
    const answer = fc.record({
      status: fc.constantFrom(200, 201, 204, 301, 302, 400, 401, 404, 410, 429, 500, 503, 600, 799, 999),
      type: fc.option(
        fc.constantFrom("application/activity+json", "application/ld+json", "text/html", "image/png", "text/plain; x"),
        { nil: undefined },
      ),
      body: fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      ),
      headers: fc.record(
        {
          location: fc.oneof(fc.constant("/next"), fc.constant(`${unlistedOrigin}/x`), fc.string({ maxLength: 30 })),
          link: fc.oneof(
            fc.constant(`<${listedOrigin}/alt>; rel="alternate"; type="application/activity+json"`),
            fc.constant(`<${unlistedOrigin}/alt>; rel="alternate"; type="application/activity+json"`),
            fc.string({ maxLength: 60 }),
          ),
        },
        { requiredKeys: [] },
      ),
    });
    await fc.assert(
      fc.asyncProperty(answer, async (generated) => {
        answerFor = () => generated;
        try {
          const document = await load("/generated");
          expect(document.documentUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(FetchError);
        }
      }),
      { numRuns: 150 },
    );
    expect(unlistedHits).toEqual([]);
  });
});
