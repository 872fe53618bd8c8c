import { randomBytes } from "node:crypto";
import { isAllowedHost, parseHostHeader } from "../app/lib/host.mjs";

/**
 * Answers a malformed Host header with 400 and a host outside ALLOWED_HOSTS with 421, before any
 * page, backend call or cache entry is made for it.
 * @param {string[] | undefined} allowedHosts
 * @returns {import("express").RequestHandler}
 */
export function hostGuard(allowedHosts) {
  return (req, res, next) => {
    const host = parseHostHeader(req.headers.host);
    if (!host) return plain(res, 400, "Bad Request: invalid Host header");
    if (!isAllowedHost(host.name, allowedHosts)) return plain(res, 421, "Misdirected Request: unknown host");
    next();
  };
}

/**
 * A fresh nonce for the document's Content-Security-Policy (which app/entry.server.tsx sets, knowing
 * the embeds). Only for what reaches the app: static files need none.
 * @returns {import("express").RequestHandler}
 */
export function cspNonce() {
  // 16 random bytes a response, cut from a pool drawn 4 KB at a time: one call into the system's random
  // source a request was 3 % of the CPU of serving a cached page.
  let pool = Buffer.alloc(0);
  let used = 0;
  return (_req, res, next) => {
    if (used + 16 > pool.length) {
      pool = randomBytes(4096);
      used = 0;
    }
    res.locals.cspNonce = pool.toString("base64", used, (used += 16));
    next();
  };
}

/**
 * Headers every response carries.
 * @param {{ hstsMaxAge: number }} settings
 * @returns {import("express").RequestHandler}
 */
export function securityHeaders({ hstsMaxAge }) {
  return (_req, res, next) => {
    res.set({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
      "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
      "X-Frame-Options": "SAMEORIGIN",
    });
    if (hstsMaxAge > 0) res.set("Strict-Transport-Security", `max-age=${hstsMaxAge}; includeSubDomains`);
    next();
  };
}

function plain(res, status, text) {
  res.status(status).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).send(`${text}\n`);
}
