import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
// The Web Streams renderer, not the Node one: see renderDocument.
import { renderToReadableStream } from "react-dom/server.browser";
import { getSettings, siteOf } from "./config.server";
import { contentSecurityPolicy } from "./csp.server";
import { holdScriptsUntilPainted } from "./lib/scripts-after-paint";

// Read and check the settings as the server starts, so a wrong setting stops it with a clear list.
// The server calls it too, through the build, before it listens.
getSettings();
export { getSettings };
export { startSites } from "./sites.server";

const ABORT_DELAY_MS = 5_000;
export const streamTimeout = ABORT_DELAY_MS;

/**
 * Every reader, browser or crawler, gets the whole document at once (nothing on the site streams:
 * docs/decisions/001). Having all of it, the server lists its inline scripts' hashes in the CSP, so the
 * page is the same bytes for everyone and any cache can keep it (docs/decisions/013).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  let status = responseStatusCode;
  // The page's scripts load after the first paint (docs/decisions/013).
  const html = holdScriptsUntilPainted(await renderDocument(request, remixContext, () => (status = 500)));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(html, siteOf(loadContext), { upgradeInsecureRequests: getSettings().hstsMaxAge > 0 }));
  return new Response(html, { headers: responseHeaders, status });
}

/**
 * The whole document as text. React 18.3's Node renderer (renderToPipeableStream) writes stray NUL
 * bytes where a multi-byte character meets the end of its 2 KB buffer; its Web Streams renderer encodes
 * each chunk whole and has no such fault. renderToString cannot be used: it leaves out the loader data
 * that Remix's <Scripts> adds inside a Suspense boundary (docs/decisions/023).
 */
async function renderDocument(request: Request, remixContext: EntryContext, onRenderError: () => void): Promise<string> {
  let shellRendered = false;
  // Aborted only while rendering: React would act on a late abort, and fail on its closed stream.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), ABORT_DELAY_MS + 1_000);
  try {
    const stream = await renderToReadableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />, {
      signal: timeout.signal,
      onError(error: unknown) {
        // Errors in the shell reject renderToReadableStream, and Remix logs them itself.
        if (!shellRendered) return;
        onRenderError();
        console.error(error);
      },
    });
    shellRendered = true;
    await stream.allReady;
    // Read directly: cheaper than new Response(stream).text(), and the bytes are decoded once, whole.
    const chunks: Uint8Array[] = [];
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    clearTimeout(timer);
  }
}
