import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { interleaved, packed } from "./buffers.mjs";
import { splicedGzip } from "./spliced-gzip.mjs";

/**
 * Keeps each rendered page for a few seconds and answers repeats from memory, with a fresh CSP nonce
 * swapped in for every response. A popular article is then rendered once per period instead of once per
 * reader, as a CDN in front would do (see docs/decisions/008). Only what a shared cache could store is
 * kept: GET, status 200, HTML, `Cache-Control: public`, no cookie set. Data requests of client-side
 * navigation (`*.data`) and errors always go to the app.
 * A client that accepts gzip gets the page's gzip copy, made once and spliced with each response's
 * nonce (server/spliced-gzip.mjs); any other goes through compression() as before.
 * Must come after compression() (it stores the plain HTML) and after the middleware that sets
 * res.locals.cspNonce.
 * @param {{ ttlSeconds: number, maxBytes?: number }} options
 * @returns {import("express").RequestHandler}
 */
export function pageCache({ ttlSeconds, maxBytes = 32 * 1024 * 1024 }) {
  if (ttlSeconds <= 0) return (_req, _res, next) => next();
  /** @type {LRUCache<string, { parts: Buffer[], bytes: number, nonceBytes: number, gzip?: ReturnType<typeof splicedGzip>, headers: [string, string][] }>} */
  const pages = new LRUCache({
    maxSize: maxBytes,
    sizeCalculation: (page) => page.bytes + (page.gzip?.bytes ?? 0) + 1024,
    ttl: ttlSeconds * 1000,
  });
  // Stands in for the nonce in stored pages; random, so no page can contain it by chance.
  const marker = `nonce-${randomBytes(12).toString("hex")}`;

  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.endsWith(".data")) return next();
    const key = `${req.headers.host}${req.originalUrl}`;
    const nonce = res.locals.cspNonce;
    const hit = pages.get(key);
    if (hit) {
      for (const [name, value] of hit.headers) res.setHeader(name, value.replaceAll(marker, nonce));
      res.setHeader("X-Page-Cache", "hit");
      res.setHeader("Vary", "Accept-Encoding");
      const join = Buffer.from(nonce);
      const gzip = join.length === hit.nonceBytes && req.acceptsEncodings("gzip", "identity") === "gzip";
      let page = hit;
      if (gzip) {
        // Made on the first request that wants it, and stored again so that its size counts.
        if (!page.gzip) pages.set(key, (page = { ...hit, gzip: splicedGzip(hit.parts, hit.nonceBytes) }), { noUpdateTTL: true });
        res.setHeader("Content-Encoding", "gzip");
      }
      const body = gzip ? page.gzip.withJoin(join) : Buffer.concat(interleaved(page.parts, join));
      // A length, not chunks: the whole page is at hand.
      res.setHeader("Content-Length", body.length);
      return res.status(200).end(req.method === "HEAD" ? undefined : body);
    }
    if (req.method === "GET")
      recordPage(res, (body, headers) =>
        pages.set(key, {
          parts: packed(body.split(nonce).map((part) => Buffer.from(part))),
          bytes: Buffer.byteLength(body),
          nonceBytes: Buffer.byteLength(nonce),
          headers: headers.map(([name, value]) => [name, value.replaceAll(nonce, marker)]),
        }),
      );
    next();
  };
}

/** The headers a stored page is answered with; everything else is set anew for each response. */
const KEPT_HEADERS = ["content-type", "cache-control", "content-security-policy"];

/** Collects what the app writes and hands it to `store` when the response is one worth keeping. */
function recordPage(res, store) {
  const chunks = [];
  const { write, end } = res;
  const collect = (chunk, encoding) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : Buffer.from(chunk));
  };
  res.write = function (chunk, encoding, ...rest) {
    collect(chunk, encoding);
    return write.call(this, chunk, encoding, ...rest);
  };
  res.end = function (chunk, encoding, ...rest) {
    collect(chunk, encoding);
    const cacheControl = String(res.getHeader("cache-control") ?? "");
    const shareable =
      res.statusCode === 200 &&
      String(res.getHeader("content-type") ?? "").startsWith("text/html") &&
      /(^|,)\s*public\s*(,|$)/.test(cacheControl) &&
      !/no-store|private/.test(cacheControl) &&
      !res.hasHeader("set-cookie");
    if (shareable) {
      const headers = KEPT_HEADERS.filter((name) => res.hasHeader(name)).map((name) => [name, String(res.getHeader(name))]);
      store(Buffer.concat(chunks).toString("utf8"), headers);
    }
    return end.call(this, chunk, encoding, ...rest);
  };
}
