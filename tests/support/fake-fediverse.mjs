// A small instance of the social web for the tests, written with node:crypto alone (no Fedify): one reader's
// actor with an RSA key, an inbox that takes only requests signed as Mastodon signs them (draft-cavage HTTP
// Signatures over (request-target), host, date and digest; a request without one gets 401, as from a
// Mastodon that reads only those), and a signer for what the reader sends: Follow, Undo, anything.
import { createHash, createSign, createVerify, generateKeyPairSync, randomUUID } from "node:crypto";
import http from "node:http";

const AS = "https://www.w3.org/ns/activitystreams";

/** The signature string of draft-cavage for these header names, as Mastodon builds it. */
function signingString(names, { method, path, headers }) {
  return names
    .map((name) =>
      name === "(request-target)" ? `(request-target): ${method.toLowerCase()} ${path}` : `${name}: ${headers[name]}`,
    )
    .join("\n");
}

/** The Signature header's parameters. */
export function parseSignature(header) {
  const params = {};
  for (const match of String(header ?? "").matchAll(/(\w+)="([^"]*)"/g)) params[match[1]] = match[2];
  return params;
}

/**
 * Whether a request carries a valid draft-cavage signature by the key whose PEM `keyOf(keyId)` gives.
 * @returns {Promise<{ ok: boolean, keyId?: string, why?: string }>}
 */
export async function verifyCavage({ method, path, headers, body }, keyOf) {
  const params = parseSignature(headers.signature);
  if (!params.keyId || !params.signature || !params.headers) return { ok: false, why: "no draft-cavage signature" };
  const names = params.headers.split(" ");
  for (const needed of ["(request-target)", "host", "date"]) {
    if (!names.includes(needed)) return { ok: false, why: `${needed} not signed` };
  }
  if (body.length > 0) {
    if (!names.includes("digest")) return { ok: false, why: "digest not signed" };
    const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
    if (headers.digest !== digest) return { ok: false, why: "digest does not match the body" };
  }
  // A key that cannot be had (its server stopped, say) is a signature that does not verify, as on Mastodon.
  const pem = await keyOf(params.keyId).catch(() => undefined);
  if (!pem) return { ok: false, why: `no key ${params.keyId}` };
  const verifier = createVerify("sha256");
  verifier.update(signingString(names, { method, path, headers }));
  return verifier.verify(pem, params.signature, "base64")
    ? { ok: true, keyId: params.keyId }
    : { ok: false, why: "the signature does not verify" };
}

/**
 * Starts the instance on 127.0.0.1. `keyOf(keyId)` finds a sender's public key (the site's, for its Accept).
 * @param {{ keyOf: (keyId: string) => Promise<string | undefined>, inboxStatus?: () => number }} options
 */
export async function startFakeInstance({ keyOf, inboxStatus = () => 202 }) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" });
  /** @type {{ path: string, headers: http.IncomingHttpHeaders, body: any, verified: { ok: boolean, why?: string } }[]} */
  const received = [];
  let origin = "";
  const actorOf = (name) => ({
    "@context": [AS, "https://w3id.org/security/v1"],
    id: `${origin}/users/${name}`,
    type: "Person",
    preferredUsername: name,
    inbox: `${origin}/users/${name}/inbox`,
    outbox: `${origin}/users/${name}/outbox`,
    followers: `${origin}/users/${name}/followers`,
    endpoints: { sharedInbox: `${origin}/inbox` },
    publicKey: { id: `${origin}/users/${name}#main-key`, owner: `${origin}/users/${name}`, publicKeyPem },
  });
  /** Actors served besides the reader, by name: a document a test makes (an inbox elsewhere, say). */
  const extraActors = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? "/";
      const user = /^\/users\/([a-z0-9_]+)$/.exec(path);
      if (req.method === "GET" && user) {
        const document = extraActors.get(user[1]) ?? actorOf(user[1]);
        res.writeHead(200, { "Content-Type": "application/activity+json" }).end(JSON.stringify(document));
        return;
      }
      if (req.method === "POST" && (/^\/users\/[a-z0-9_]+\/inbox$/.test(path) || path === "/inbox")) {
        const verified = await verifyCavage({ method: "POST", path, headers: req.headers, body }, keyOf);
        let parsed;
        try {
          parsed = JSON.parse(body.toString("utf8"));
        } catch {
          parsed = undefined;
        }
        received.push({ path, headers: req.headers, body: parsed, verified });
        res.writeHead(verified.ok ? inboxStatus() : 401).end();
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  origin = `http://127.0.0.1:${address.port}`;
  const reader = actorOf("reader");

  return {
    origin,
    host: `127.0.0.1:${address.port}`,
    reader,
    actorOf,
    /** Serves `document` as the actor `name` (its id and keys as the test wrote them). */
    serveActor: (name, document) => extraActors.set(name, document),
    received,
    /** A new activity's address on this instance. */
    newId: () => `${origin}/activities/${randomUUID()}`,
    /**
     * Sends `activity` to `url` (an inbox of the site, reached on `connectTo`), signed as Mastodon signs it by
     * the reader's key unless another key id and key are given; `sign: false` sends it unsigned.
     * @param {string} url
     * @param {object | string} activity
     * @param {{ connectTo: string, sign?: boolean, keyId?: string, key?: import("node:crypto").KeyObject, extraHeaders?: Record<string, string> }} options
     * @returns {Promise<{ status: number, text: string }>}
     */
    async deliver(
      url,
      activity,
      { connectTo, sign = true, keyId = reader.publicKey.id, key = privateKey, extraHeaders = {} },
    ) {
      const target = new URL(url);
      const body = Buffer.from(typeof activity === "string" ? activity : JSON.stringify(activity));
      const headers = {
        host: target.host,
        date: new Date().toUTCString(),
        digest: `SHA-256=${createHash("sha256").update(body).digest("base64")}`,
        "content-type": "application/activity+json",
        ...extraHeaders,
      };
      if (sign) {
        const names = ["(request-target)", "host", "date", "digest", "content-type"];
        const signer = createSign("sha256");
        signer.update(signingString(names, { method: "POST", path: target.pathname + target.search, headers }));
        const signature = signer.sign(key, "base64");
        headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${names.join(" ")}",signature="${signature}"`;
      }
      // node:http, not fetch: fetch sends the Host of the address it connects to, not the one signed.
      return await new Promise((resolve, reject) => {
        const request = http.request(
          new URL(target.pathname + target.search, connectTo),
          { method: "POST", headers: { ...headers, "content-length": String(body.length) } },
          (response) => {
            const chunks = [];
            response.on("data", (chunk) => chunks.push(chunk));
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
            );
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    },
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
