import type { RequestHandler, Response } from "express";
import { isAllowedHost, parseHostHeader } from "../app/lib/host";

/**
 * Answers a malformed Host header with 400 and a host outside ALLOWED_HOSTS with 421, before any
 * page, backend call or cache entry is made for it.
 */
export function hostGuard(allowedHosts: string[] | undefined): RequestHandler {
  return (req, res, next) => {
    const host = parseHostHeader(req.headers.host);
    if (!host) return plain(res, 400, "Bad Request: invalid Host header");
    if (!isAllowedHost(host.name, allowedHosts)) return plain(res, 421, "Misdirected Request: unknown host");
    next();
  };
}

const SERVED = "GET, HEAD, OPTIONS";

/**
 * The site only reads: GET and HEAD. Other methods get 405 with the list, before the framework, which
 * cannot even make a Request of some (TRACE) and answered those with 500.
 */
export function readOnlyMethods(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    res.set("Allow", SERVED);
    if (req.method === "OPTIONS") return res.set("Cache-Control", "no-store").status(204).end();
    plain(res, 405, "Method Not Allowed");
  };
}

/**
 * An address that cannot be decoded (`/%`, `/build/%zz`) goes to the site's 400 page, before the static
 * file handlers, which would answer it with a bare "URI malformed".
 */
export function decodablePath(): RequestHandler {
  return (req, _res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(Object.assign(new URIError(`Undecodable address: ${req.path}`), { status: 400 }));
    }
    next();
  };
}

/** For load balancers: the process is up and serving. No backend call, no log line, no cache. */
export function healthCheck(): RequestHandler {
  return (req, res, next) => (req.path === "/healthz" ? plain(res, 200, "ok") : next());
}

export function plain(res: Response, status: number, text: string) {
  res.status(status).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).send(`${text}\n`);
}
