import type { IncomingMessage, ServerResponse } from "node:http";
import { beaconLimits, tokenBuckets } from "~/beacon/rate-limit.server";
import { readerAddress } from "~/beacon/readers.server";
import { readBody } from "~/document/request-body.server";
import type { SiteSettings } from "~/site/config.server";

type Request = IncomingMessage & { path?: string };
type Response = ServerResponse & { locals: { site?: { label: string } } };

/** The addresses the social web asks a followable site for; any other goes on to the pages. */
export const FEDIVERSE_PATH = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/2\.1|ap\/[^?]*)$/;

/** An activity larger than this is refused: Mastodon's are a few kilobytes. */
export const MAX_ACTIVITY_BYTES = 64 * 1024;
/** An activity still arriving after this long is given up on. */
const READ_TIMEOUT_MS = 5_000;

/**
 * What one sending server may deliver: more than an address may (an instance's deliveries come from many
 * workers). It is charged only for activities the federation took, whose signature Fedify found made by
 * the activity's actor, so naming another server's actor, or its key, spends nothing of that server's.
 */
export const SENDER_RATE = { burst: 300, perSecond: 20 };

/**
 * The server an activity comes from: its actor's host, read from the body (a string or an object's `id`);
 * undefined when there is none to read. Not verified here: the federation checks the signer owns the actor.
 */
export function senderOf(body: Buffer | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const activity = JSON.parse(body.toString("utf8")) as { actor?: unknown } | null;
    const actor = activity?.actor;
    const id = typeof actor === "string" ? actor : (actor as { id?: unknown } | null | undefined)?.id;
    return typeof id === "string" && URL.canParse(id) ? new URL(id).host || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** A site's federation as the endpoint uses it: its answer to a request, none when the request is for the pages. */
export type SiteFederation = { answer(request: globalThis.Request): Promise<globalThis.Response | undefined> };

/**
 * The social web's requests to a followable site (FEDIVERSE=on), before the pages: WebFinger, NodeInfo, the
 * actor, its collections and articles, and its inbox, the one other POST the site takes. A site without
 * federation, or an address its federation does not know, goes on to the pages (and their 404). Activities
 * are bounded in size and in time to arrive; each address may post a few a second, and each sending server
 * SENDER_RATE. Never a stack trace.
 */
export function fediverseEndpoint(federationOf: (site: SiteSettings) => SiteFederation | undefined) {
  let lastLogged = 0;
  // Per address, and for the process: a follow storm costs bounded work.
  const allowed = beaconLimits({ perReader: { burst: 60, perSecond: 5 }, overall: { burst: 300, perSecond: 100 } });
  const senders = tokenBuckets({ rate: SENDER_RATE });
  return async (req: Request, res: Response, next: (error?: unknown) => void) => {
    const path = req.path ?? new URL(req.url ?? "/", "http://site.invalid").pathname;
    const site = res.locals.site as SiteSettings | undefined;
    const federation = site?.siteUrl && FEDIVERSE_PATH.test(path) ? federationOf(site) : undefined;
    if (!site?.siteUrl || !federation) return next();
    const method = req.method ?? "GET";
    if (method !== "GET" && method !== "HEAD" && method !== "POST") return next();
    let body: Buffer | undefined;
    if (method === "POST") {
      if (!allowed(readerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]))) {
        return plain(res, 429, "Too Many Requests", { "Retry-After": "10" });
      }
      if (Number(req.headers["content-length"] ?? 0) > MAX_ACTIVITY_BYTES) return plain(res, 413, "Payload Too Large");
      const read = await readBody(req, MAX_ACTIVITY_BYTES, READ_TIMEOUT_MS);
      if (read === "too_large") return plain(res, 413, "Payload Too Large");
      if (read === "too_slow") return plain(res, 408, "Request Timeout");
      if (read === "aborted") return void res.destroy();
      body = read;
      // Requests already on their way when the server's last token goes are taken: the address limits bound them.
      if (!senders.has(senderOf(body))) return plain(res, 429, "Too Many Requests", { "Retry-After": "10" });
    }
    try {
      const request = new globalThis.Request(new URL(req.url ?? "/", site.siteUrl), {
        method,
        headers: headersOf(req),
        body: body ? new Uint8Array(body) : undefined,
      });
      const response = await federation.answer(request);
      if (!response) return next();
      if (method === "POST" && response.ok) senders.take(senderOf(body));
      const bytes = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = { "Cache-Control": "no-store" };
      response.headers.forEach((value, name) => (headers[name] = value));
      res.writeHead(response.status, headers).end(method === "HEAD" ? undefined : bytes);
    } catch (error) {
      // An activity Fedify cannot read (an unknown JSON-LD context, a malformed document) is the sender's
      // fault; so is a request no Request takes. Either way one line a minute at most, whoever sends them.
      const status = method === "POST" || error instanceof TypeError ? 400 : 503;
      if (Date.now() - lastLogged > 60_000) {
        lastLogged = Date.now();
        console.warn(
          `Fediverse ${method} ${path} answered ${status}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      plain(res, status, status === 400 ? "Bad Request" : "Service Unavailable");
    }
  };
}

function headersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "connection" || name === "transfer-encoding" || name === "keep-alive") continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function plain(res: Response, status: number, text: string, extra: Record<string, string> = {}) {
  res
    .writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...extra })
    .end(`${text}\n`);
}
