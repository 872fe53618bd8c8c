import type { RequestHandler } from "express";

const LEADING = /^\/(?:[\\/]|%5c|%2f)+/i;

/**
 * Redirects a path that starts with several slashes or backslashes (plain or percent-encoded), such as
 * `//blog` or `/%5C`, to the same path with one slash. The router resolves such a path as a URL with
 * another host (`/\` is not a URL at all, which used to give a 500); a single leading slash followed by
 * neither character can only point back at this site, so the redirect is no open redirect.
 */
export function collapseLeadingSlashes(): RequestHandler {
  return (req, res, next) => {
    const match = LEADING.exec(req.url);
    if (!match) return next();
    res.set("Cache-Control", "public, max-age=3600").redirect(301, `/${req.url.slice(match[0].length)}`);
  };
}
