import { BlogUnavailableError } from "~/blog/errors.server";
import type { HttpCache } from "~/document/http-cache.server";

/**
 * The answers of the files made for crawlers and feed readers (sitemaps, feed, share image): plain text,
 * never a page, kept as the site's HTTP cache policy says.
 */
export function crawlerFiles({ control }: HttpCache) {
  function fileResponse(body: string, contentType: string): Response {
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": control("file") } });
  }

  function missingFile(what: string): Response {
    return new Response(`No such ${what}\n`, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": control("missing") },
    });
  }

  /** A backend outage is a 503 to retry later; anything else is a bug and goes on to the error handling. */
  function unavailableFile(what: string, error: unknown): Response {
    if (!(error instanceof BlogUnavailableError)) throw error;
    console.error(`${what}: ${error.message}`);
    return new Response(`${what} temporarily unavailable\n`, {
      status: 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": control("unavailable"),
        "Retry-After": "60",
      },
    });
  }

  function imageResponse(body: Buffer, contentType: string): Response {
    return new Response(new Uint8Array(body), {
      headers: {
        "Content-Type": contentType,
        "Content-Length": String(body.length),
        "Cache-Control": control("file"),
      },
    });
  }

  return { fileResponse, missingFile, unavailableFile, imageResponse };
}
