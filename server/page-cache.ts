import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";

type Encoding = "br" | "gzip" | "identity";
type Page = { headers: [string, number | string | string[]][]; hash: string; bodies: Partial<Record<Encoding, Buffer>>; bytes: number };

/** Headers each answer sets for itself; the rest of what the app set is kept with the page. */
const NOT_KEPT = new Set(["content-length", "content-encoding", "etag", "vary", "date", "connection", "keep-alive", "transfer-encoding"]);
const compressors: Record<Exclude<Encoding, "identity">, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

/**
 * Answers every page a shared cache could keep (GET, 200, HTML, `Cache-Control: public`, no cookie)
 * as a whole response with a strong ETag (304 for `If-None-Match`), compressed for the reader, and keeps
 * it for `ttlSeconds` so a popular page is rendered once per period rather than once per reader, as a
 * proxy in front would (docs/decisions/014). A kept page is compressed once per encoding (gzip and
 * Brotli). Pages are the same bytes for every reader (docs/decisions/013), so nothing is rewritten.
 * Everything else (data requests, errors, feeds) passes through untouched, to compression().
 */
export function pageCache({ ttlSeconds, maxBytes = 32 * 1024 * 1024 }: { ttlSeconds: number; maxBytes?: number }): RequestHandler {
  const pages =
    ttlSeconds > 0 ? new LRUCache<string, Page>({ maxSize: maxBytes, sizeCalculation: (page) => page.bytes, ttl: ttlSeconds * 1000 }) : undefined;
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.endsWith(".data")) return next();
    const key = `${req.headers.host}${req.originalUrl}`;
    const hit = pages?.get(key);
    if (hit) return answer(req, res, hit);
    // A HEAD is rendered without a body (Remix drops it): nothing to keep.
    if (req.method === "GET")
      whenComplete(res, (body) => {
        const encoding = pages ? undefined : preferredEncoding(req);
        const page = makePage(res, body, encoding ? [encoding] : ["br", "gzip"]);
        pages?.set(key, page);
        answer(req, res, page);
      });
    next();
  };
}

function preferredEncoding(req: Request): Encoding {
  return (["br", "gzip"] as const).find((encoding) => req.acceptsEncodings(encoding) === encoding) ?? "identity";
}

function makePage(res: Response, body: Buffer, encodings: Encoding[]): Page {
  const bodies: Page["bodies"] = { identity: body };
  for (const encoding of encodings) if (encoding !== "identity") bodies[encoding] = compressors[encoding](body);
  return {
    headers: Object.entries(res.getHeaders())
      .filter((entry): entry is [string, number | string | string[]] => entry[1] !== undefined && !NOT_KEPT.has(entry[0]))
      .map(([name, value]) => [name, value]),
    hash: createHash("sha256").update(body).digest("base64url").slice(0, 32),
    bodies,
    bytes: Object.values(bodies).reduce((sum, part) => sum + part.length, 1024),
  };
}

function answer(req: Request, res: Response, page: Page) {
  const wanted = preferredEncoding(req);
  const encoding = page.bodies[wanted] ? wanted : "identity";
  const body = page.bodies[encoding] ?? Buffer.alloc(0);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  // One tag per encoding: a strong ETag names these exact bytes.
  res.setHeader("ETag", `"${page.hash}${encoding === "identity" ? "" : `-${encoding}`}"`);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.status(200);
  if (req.fresh) return res.status(304).end();
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Holds back what the app writes. A page worth keeping goes to `keep` once complete; anything else is
 * written on as it was.
 */
function whenComplete(res: Response, keep: (body: Buffer) => void) {
  const chunks: Buffer[] = [];
  const { write, end } = res;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, encoding?: unknown) => {
    collect(chunk, encoding);
    return true;
  }) as Response["write"];
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    collect(chunk, encoding);
    res.write = write;
    res.end = end;
    if (isShareablePage(res)) keep(Buffer.concat(chunks));
    else {
      for (const part of chunks) res.write(part);
      res.end();
    }
    return res;
  }) as Response["end"];
}

function isShareablePage(res: Response) {
  const cacheControl = String(res.getHeader("cache-control") ?? "");
  return (
    res.statusCode === 200 &&
    String(res.getHeader("content-type") ?? "").startsWith("text/html") &&
    /(^|,)\s*public\s*(,|$)/.test(cacheControl) &&
    !/no-store|private/.test(cacheControl) &&
    !res.hasHeader("set-cookie")
  );
}
