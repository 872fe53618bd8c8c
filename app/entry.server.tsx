import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { getSettings, siteOf } from "./site/config.server";
import { contentSecurityPolicy } from "./document/csp.server";
import { escapeScriptData } from "./document/inline-script";
import { PageScripts } from "./document/page-scripts";
import { BEACON_PATH } from "./beacon/beacon-path";

// Read and check the settings as the server starts, so a wrong setting stops it with a clear list.
// The server calls it too, through the build, before it listens.
getSettings();
export { getSettings };
export { servedSites, startSites } from "./site/sites.server";
export { startSeries } from "./metrics/start.server";
export { reportHandler } from "./report/handler.server";
export { beaconEndpoint } from "./beacon/endpoint.server";
export { fediverseEndpoint } from "./fediverse/endpoint.server";
export { BEACON_PATH } from "./beacon/beacon-path";
export { createServiceRegistry } from "./services/site-services.server";

/** How long loaders' data may take to encode (Remix's single fetch); nothing on the site defers data. */
export const streamTimeout = 5_000;

/**
 * Every reader, browser or crawler, gets the whole document at once (nothing on the site streams:
 * docs/decisions/001). Having all of it, the server lists its inline scripts' hashes in the CSP, so the
 * page is the same bytes for everyone and any cache can keep it (docs/decisions/013).
 *
 * The document is rendered to a string, and the loaders' data for hydration follows it in one script
 * (docs/decisions/024): what Remix's <RemixServer> would stream in a Suspense boundary, which a string
 * render cannot wait for. React 18.3's Node stream renderer is not used: it wrote stray NUL bytes into
 * text outside ASCII (docs/decisions/023).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { serverHandoffStream } = remixContext;
  const data = serverHandoffStream ? await new Response(serverHandoffStream).text() : undefined;
  // The page's components name their inline scripts as they render (app/document/page-scripts.ts).
  const scripts = new Set<string>();
  // A render error throws: Remix then renders the error boundary, with status 500.
  const rendered = renderToString(
    <PageScripts.Provider value={scripts}>
      <RemixServer context={{ ...remixContext, serverHandoffStream: undefined }} url={request.url} />
    </PageScripts.Provider>,
  );
  const dataScript = data === undefined ? undefined : loaderData(data);
  if (dataScript) scripts.add(dataScript);
  const html = `<!DOCTYPE html>${rendered}${dataScript ? `<script>${dataScript}</script>` : ""}${getSettings().analytics ? NO_SCRIPT_VIEW : ""}`;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy([...scripts], siteOf(loadContext), { upgradeInsecureRequests: getSettings().hstsMaxAge > 0 }),
  );
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * A view of a page read without JavaScript (docs/decisions/050): an image request to the beacon, whose
 * Referer names the page (its donation panel shown is counted by the stylesheet: app/tailwind.css,
 * decision 052). The same bytes on
 * every page, so pages stay byte-stable; added after the document, as the data script is, where the parser
 * puts it at the end of the body and hydration leaves it alone (React keeps a body's extra last children).
 * With JavaScript, a noscript's content is text: nothing is fetched or styled, and the page's script
 * sends the view and what the reader does.
 */
const NO_SCRIPT_VIEW = `<noscript><img src="${BEACON_PATH}" alt="" hidden></noscript>`;

/** The loaders' data as Remix's browser entry reads it: into the stream its <Scripts> opened, then closed. */
function loaderData(data: string): string {
  return `window.__remixContext.streamController.enqueue(${escapeScriptData(JSON.stringify(data))});window.__remixContext.streamController.close();`;
}
