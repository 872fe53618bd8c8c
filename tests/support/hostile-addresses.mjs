// Request targets built to make a redirect leave the site: leading slashes and backslashes, raw and
// percent-encoded, tabs and line breaks, encoded dots, doubled slashes, fragments, other hosts, in the
// path, in ?page= and in slugs. Shared by the origin's test and the one through nginx.
import fc from "fast-check";

const piece = fc.constantFrom(
  "/",
  "//",
  "///",
  "\\",
  "/\\",
  "\\\\",
  "%5C",
  "%5c",
  "%2F",
  "%2f",
  "%2F%2F",
  "%5C%5C",
  "%252F",
  "%255C",
  "\t",
  "%09",
  "%0A",
  "%0d%0a",
  "%00",
  ".",
  "..",
  "%2e",
  "%2E%2E",
  "%2e%2e%2f",
  "./",
  "../",
  "evil.example",
  "evil.example.",
  "@evil.example",
  "evil.example:443",
  "127.0.0.2",
  "[::1]",
  "%65vil.example",
  "#",
  "#//evil.example",
  "?",
  "&",
  "=",
  "http:",
  "https:",
  "javascript:",
  "%68ttp:",
  ":",
  "@",
);
const pieces = fc.array(piece, { minLength: 1, maxLength: 7 }).map((parts) => parts.join(""));

/** Pages that redirect, or whose neighbours do: the blog list (canonical ?page=), articles, files, assets. */
const base = fc.constantFrom(
  "",
  "/blog",
  "/blog/",
  "/blog.data",
  "/favicon.ico",
  "/build",
  "/build/",
  "/images/",
  "/sitemap-articles.xml",
  "/search",
  "/blog/keyword/",
);

/** A request target as a browser or an attacker may send it; always starts with "/" (origin-form) or is absolute-form. */
export const hostileTarget = fc.oneof(
  // In the path: /<pieces>, after a page's path, or as a slug.
  fc.tuple(base, pieces).map(([start, rest]) => `/${`${start}${rest}`.replace(/^\//, "")}`),
  fc.tuple(base, pieces).map(([start, rest]) => `/${start.replace(/^\//, "")}/${rest}`),
  // In ?page= (and with another parameter around it).
  fc
    .tuple(
      fc.constantFrom("/blog", "/blog/", "/blog.data", "/", "/search"),
      pieces,
      fc.constantFrom("", "&page=2", "&fbclid=x"),
    )
    .map(([path, value, more]) => `${path}?page=${value}${more}`),
  // Absolute-form targets, which HTTP/1.1 servers must accept.
  fc
    .tuple(fc.constantFrom("http://evil.example", "https://evil.example", "http://127.0.0.1"), pieces)
    .map(([host, rest]) => `${host}/${rest}`),
);

/** Characters no HTTP server accepts raw in a request line: such a target is answered 400 or refused. */
export const sendable = (target) => !/[\r\n\0 ]/.test(target);

/**
 * Where a browser would go for this answer: Location (any 3xx) and Remix's X-Remix-Redirect (202 to a
 * `.data` request), resolved as the WHATWG URL parser does against the page's own address. `origin` is
 * "(unresolvable)" for a value no browser can follow.
 */
export function redirectTargets(reply, pageUrl) {
  const targets = [];
  for (const name of ["location", "x-remix-redirect"]) {
    const value = reply.headers[name];
    if (value === undefined) continue;
    let origin = "(unresolvable)";
    try {
      const url = new URL(value, pageUrl);
      origin = `${url.protocol}//${url.host}`;
    } catch {
      // No browser can follow it: reported as such.
    }
    targets.push({ header: name, value, origin });
  }
  return targets;
}

/** The address a browser was at when it sent `target` to `origin` (the base a relative Location resolves against). */
export function pageUrl(origin, target) {
  try {
    return new URL(target.startsWith("/") ? `${origin}${target}` : `${origin}/`);
  } catch {
    return new URL(`${origin}/`);
  }
}
