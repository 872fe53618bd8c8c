import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";
import { getSettings, siteOf } from "./config.server";
import { contentSecurityPolicy } from "./csp.server";
import { holdScriptsUntilPainted } from "./lib/scripts-after-paint";

// Read and check the settings as the server starts, so a wrong setting stops it with a clear list.
// The server calls it too, through the build, before it listens.
getSettings();
export { getSettings };
export { startSites } from "./sites.server";
export { startMetrics } from "./metrics/start.server";

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
  // The page's scripts load after the first paint (docs/decisions/013).
  const html = holdScriptsUntilPainted(await renderDocument(request, remixContext, (status) => (responseStatusCode = status)));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(html, siteOf(loadContext), { upgradeInsecureRequests: getSettings().hstsMaxAge > 0 }));
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

function renderDocument(request: Request, remixContext: EntryContext, setStatus: (status: number) => void) {
  return new Promise<string>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} />,
      {
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const body = new PassThrough();
          text(body).then(resolve, reject);
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          setStatus(500);
          // Errors in the shell reach Remix through onShellError, which logs them itself.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS + 1_000);
  });
}
