import type { RequestHandler, Response } from "express";
import type { SiteRegistry } from "../app/site/sites.server";
import { isAllowedHost, parseHostHeader } from "../app/site/host";
import { pageAddress } from "../app/document/page-address";

/**
 * Finds the request's site by its host (`res.locals.site`, which the app reads through its load context).
 * A malformed Host header gets 400, and a host outside ALLOWED_HOSTS or the sites file 421, before any
 * page, backend call or cache entry.
 */
export function hostGuard(allowedHosts: string[] | undefined, sites: SiteRegistry): RequestHandler {
  return (req, res, next) => {
    const host = parseHostHeader(req.headers.host);
    if (!host) return plain(res, 400, "Bad Request: invalid Host header");
    const site = isAllowedHost(host.name, allowedHosts) ? sites.find(host.name) : undefined;
    if (!site) return plain(res, 421, "Misdirected Request: unknown host");
    // The request keeps this site to the end, even if the sites file is reloaded meanwhile.
    res.locals.site = site;
    // Host alone names the site and its links: the framework's adapter would take a port from this header
    // whatever "trust proxy" says, and a page kept for everyone would carry it.
    delete req.headers["x-forwarded-host"];
    next();
  };
}

/** The site only reads (the readers' beacon, mounted before this, aside). Other methods get 405 before the framework, which cannot make a Request of TRACE (it gave 500). */
export function readOnlyMethods(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    res.set("Allow", "GET, HEAD, OPTIONS");
    if (req.method === "OPTIONS") return res.set("Cache-Control", "no-store").status(204).end();
    plain(res, 405, "Method Not Allowed");
  };
}

/** Slashes after the first, raw or encoded, with the tabs and line breaks the URL parser drops between them. */
const LEADING_SLASHES = /^\/(?:%09|%0a|%0d)*(?:(?:[\\/]|%5c|%2f)(?:%09|%0a|%0d)*)+/i;
/** A `.` or `..` segment as the URL parser reads one (`%2e` is a dot; `\` separates segments). */
const DOT_SEGMENT = /(?:^|[\\/])(?:\.|%2e){1,2}(?=[\\/?#]|$)/i;

/**
 * The address as the framework will read it (the URL parser's path: dot segments resolved, `\` as `/`) must
 * start with one slash followed by neither slash nor backslash, raw or encoded: the router would read
 * `//host` or `/%5C` as a URL with another host (`/\` is no URL at all, which gave 500; so is `/%09/`, as the parser drops tabs and line breaks). Such an address,
 * or one with dot segments, is redirected to its normal form, which can only point back here. A request
 * target that is not a path (absolute-form `http://host/x`, meant for proxies) gets 400. An address that
 * cannot be decoded goes to the site's 400 page (error-page.ts), not a static handler's bare one.
 */
export function normalPaths(): RequestHandler {
  return (req, res, next) => {
    if (!req.url.startsWith("/")) return plain(res, 400, "Bad Request: the request target must be a path");
    const parsed = new URL(`http://origin.invalid${req.url}`);
    const slashes = LEADING_SLASHES.exec(parsed.pathname);
    if (slashes || DOT_SEGMENT.test(pathOf(req.url))) {
      const normal = `/${parsed.pathname.slice(slashes ? slashes[0].length : 1)}${parsed.search}`;
      return res.set("Cache-Control", "public, max-age=3600").redirect(301, normal);
    }
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(Object.assign(new URIError(`Undecodable address: ${req.path}`), { status: 400 }));
    }
    next();
  };
}

/** The path of a request target as sent, before its query. */
const pathOf = (target: string) => target.split("?", 1)[0] ?? "";

/** Only the query parameters a page reads go on (app/document/page-address.ts): a click id never makes a page of its own. */
export function pageAddresses(): RequestHandler {
  return (req, _res, next) => {
    req.url = req.originalUrl = pageAddress(req.originalUrl);
    next();
  };
}

/** For load balancers: the process is up. No backend call, no log line, no cache. */
export function healthCheck(): RequestHandler {
  return (req, res, next) => (req.path === "/healthz" ? plain(res, 200, "ok") : next());
}

function plain(res: Response, status: number, text: string) {
  res
    .status(status)
    .set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" })
    .send(`${text}\n`);
}
