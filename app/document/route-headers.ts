import type { HeadersFunction } from "@remix-run/node";

const passedOn = ["Cache-Control", "Retry-After", "Link"];

/**
 * Route modules export this as `headers`: the loader (or the thrown error response) decides caching,
 * so a 503 or 404 never inherits a page's long cache lifetime.
 */
export const loaderHeaders: HeadersFunction = ({ loaderHeaders: fromLoader, errorHeaders }) => {
  const source = errorHeaders ?? fromLoader;
  const headers = new Headers();
  for (const name of passedOn) {
    const value = source.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
