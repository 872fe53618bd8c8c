import type { ErrorRequestHandler } from "express";
import { escapeMarkup } from "../app/document/escape-markup";

const STYLE =
  "body{margin:0;min-height:100vh;display:grid;place-items:center;background:#faf7f2;color:#1c1917;font:1.125rem/1.6 ui-sans-serif,system-ui,sans-serif;text-align:center;padding:1.5rem}" +
  "h1{font:600 2rem/1.2 Georgia,serif;margin:0 0 .75rem}a{display:inline-block;margin-top:1.5rem;padding:.75rem 1.75rem;border-radius:9999px;background:#3c5430;color:#fff;font-weight:600;text-decoration:none}a:focus-visible{outline:3px solid #a16207;outline-offset:2px}";

/**
 * The last stop for a request that failed before the app: an undecodable address (`/%`), a file that could
 * not be read. A short page in the site's colours with the right status, a way home, nothing of the error.
 */
export function errorPage(fallback: { siteName: string }): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const site = escapeMarkup((res.locals.site ?? fallback).siteName);
    const status =
      Number.isInteger(error?.status) && error.status >= 400 && error.status < 500 ? (error.status as number) : 500;
    if (status === 500) console.error(error);
    const [title, text] =
      status === 500
        ? ["Something went wrong", "The page could not be shown. Please try again in a moment."]
        : ["This address cannot be read", "The link may be broken or mistyped."];
    res.status(status).set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    });
    res.end(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · ${site}</title><style>${STYLE}</style></head>
<body><main><p>${site}</p><h1>${title}</h1><p>${text}</p><a href="/">Return to Home</a></main></body></html>`);
  };
}
