import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import type { PageCacheEvents } from "../app/metrics/series.server";

type Encoding = "br" | "gzip";
type Page = {
  headers: [string, number | string | string[]][];
  hash: string;
  bodies: Partial<Record<Encoding | "identity", Buffer>>;
  bytes: number;
};

/** Headers each answer sets for itself; the rest of what the app set is kept with the page. */
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "etag",
  "vary",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
]);
const compress: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }),
  gzip: (body) => gzipSync(body, { level: 9 }),
};

/**
 * Answers every page a shared cache could keep (GET, 200, HTML, `Cache-Control: public`, no cookie)
 * whole, compressed for the reader, with a strong ETag per encoding and 304 for `If-None-Match`; and
 * keeps it `ttlSeconds`, each encoding made once when first asked for, so a popular page is rendered once
 * per period rather than once per reader (docs/decisions/014). Anything else passes through to compression().
 */
export function pageCache({
  ttlSeconds,
  maxBytes = 32 * 1024 * 1024,
  events,
}: {
  ttlSeconds: number;
  maxBytes?: number;
  events?: PageCacheEvents;
}) {
  const dispose = events && ((_page: Page, _key: string, reason: string) => reason === "evict" && events.evicted());
  const pages =
    ttlSeconds > 0
      ? new LRUCache<string, Page>({
          maxSize: maxBytes,
          sizeCalculation: (page) => page.bytes,
          ttl: ttlSeconds * 1000,
          dispose,
        })
      : undefined;
  // The metrics hear of hits, misses and stores only when there is a cache to have them.
  const report = pages && events;
  report?.watchBytes(() => pages!.calculatedSize);
  const handler: RequestHandler = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.endsWith(".data")) return next();
    // By site configuration (its key, from the host guard) as well as address: a changed site starts afresh.
    const key = `${res.locals.site?.key} ${req.headers.host}${req.originalUrl}`;
    // Stored when made, and again when it gains an encoding, so that its size counts.
    const keep = (page: Page) => (pages?.set(key, page, { noUpdateTTL: true }), page);
    const hit = pages?.get(key);
    const site: string = res.locals.site?.label ?? "none";
    if (hit) return (report?.hit(site), answer(req, res, hit, keep));
    // Remix renders a HEAD without its body: nothing to keep.
    if (req.method === "GET")
      holdBack(
        res,
        (body) => (report?.store(site), answer(req, res, keep(makePage(res, body)), keep)),
        report && (() => report.miss(site)),
      );
    next();
  };
  /** Drops the pages of sites that a reload changed or removed, by their keys. */
  const forgetSites = (siteKeys: string[]) => {
    for (const key of pages?.keys() ?? []) if (siteKeys.some((site) => key.startsWith(`${site} `))) pages?.delete(key);
  };
  return Object.assign(handler, { forgetSites });
}

function preferredEncoding(req: Request): Encoding | "identity" {
  return (["br", "gzip"] as const).find((encoding) => req.acceptsEncodings(encoding) === encoding) ?? "identity";
}

function makePage(res: Response, body: Buffer): Page {
  const headers = Object.entries(res.getHeaders()).filter(
    (entry): entry is Page["headers"][number] => entry[1] !== undefined && !NOT_KEPT.has(entry[0]),
  );
  return {
    headers,
    hash: createHash("sha256").update(body).digest("base64url").slice(0, 32),
    bodies: { identity: body },
    bytes: body.length + 1024,
  };
}

function answer(req: Request, res: Response, page: Page, keep: (page: Page) => void) {
  const encoding = preferredEncoding(req);
  if (encoding !== "identity" && !page.bodies[encoding]) {
    page.bodies[encoding] = compress[encoding](page.bodies.identity!);
    page.bytes += page.bodies[encoding].length;
    keep(page);
  }
  const body = page.bodies[encoding]!;
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  // One tag per encoding: a strong ETag names these exact bytes.
  res.setHeader("ETag", encoding === "identity" ? `"${page.hash}"` : `"${page.hash}-${encoding}"`);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  if (res.status(200) && req.fresh) return res.status(304).end();
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Holds back what the app writes: a page worth keeping goes to `keep`, anything else is written on as it was. */
function holdBack(res: Response, keep: (body: Buffer) => void, rendered?: () => void) {
  const chunks: Buffer[] = [];
  const { write, end } = res;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === "string")
      chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  res.write = ((chunk: unknown, encoding?: unknown) => (collect(chunk, encoding), true)) as Response["write"];
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    collect(chunk, encoding);
    Object.assign(res, { write, end });
    if (String(res.getHeader("content-type") ?? "").startsWith("text/html")) rendered?.();
    if (isShareablePage(res)) keep(Buffer.concat(chunks));
    else res.end(Buffer.concat(chunks));
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
