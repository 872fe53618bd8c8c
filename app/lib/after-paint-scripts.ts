/**
 * The page's JavaScript is fetched after the first paint, so on a slow phone the stylesheet, the text
 * and the hero image get the connection first (docs/decisions/009).
 *
 * The server rewrites Remix's <Scripts> output into inert elements of the same shape: React hydrates by
 * element, not attribute, so the markup still matches. A small loader, added at the end of <body> where
 * React allows extra nodes, puts live copies there after the first paint.
 */
import { inlineCall } from "~/lib/inline-script";

export const INERT_PRELOAD_REL = "modulepreload-after-paint";
export const INERT_MODULE_TYPE = "module-after-paint";

const PRELOAD = /<link rel="modulepreload"/g;
const MODULE_SCRIPT = /<script((?: nonce="[^"]*")?) type="module"/g;

/**
 * Runs in the page (serialised into an inline script). Once the page has loaded (stylesheet, hero
 * image) and its first contentful paint is on screen, it adds live module preloads and the module
 * script with the response's nonce.
 *
 * The paint entry comes once the frame is on screen (a frame callback can come before that). A timer
 * starts them anyway if an image holds up the load event, or in a background tab, which paints nothing.
 * The preloads go in one per task, the module script last: each starts a request, 1 ms or more of
 * main thread on a slow machine, and the twelve of an article page in one task made a long task. The
 * next task comes from a message channel, not a timer: timers are slowed down in background tabs.
 *
 * Until React has taken over (the root marks the html element data-hydrated), a link is a plain link:
 * React does not see presses on it. React 18 would otherwise finish its hydration inside the press,
 * which can fail (error #345). Serialised by inlineCall: self-contained, no comments inside.
 */
function loadModulesAfterPaint(preloadRel: string, moduleType: string) {
  let started = false;
  const load = () => {
    if (started) return;
    started = true;
    const inert = document.querySelector<HTMLScriptElement>(`script[type="${moduleType}"]`);
    if (!inert) return;
    const nonce = inert.nonce;
    const preloads = [...document.querySelectorAll(`link[rel="${preloadRel}"]`)];
    const tasks = new MessageChannel();
    const next = () => {
      const link = preloads.shift();
      if (link) {
        const live = document.createElement("link");
        live.rel = "modulepreload";
        live.href = link.getAttribute("href") ?? "";
        live.nonce = nonce;
        document.body.append(live);
        tasks.port2.postMessage(null);
        return;
      }
      const script = document.createElement("script");
      script.type = "module";
      script.nonce = nonce;
      script.textContent = inert.textContent;
      document.body.append(script);
    };
    tasks.port1.onmessage = next;
    next();
  };
  const linkPresses = ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend", "click", "auxclick", "keydown"];
  const plainLinksUntilHydrated = (event: Event) => {
    if (document.documentElement.hasAttribute("data-hydrated")) {
      for (const type of linkPresses) window.removeEventListener(type, plainLinksUntilHydrated, true);
    } else if (event.target instanceof Element && event.target.closest("a[href]")) {
      event.stopPropagation();
    }
  };
  for (const type of linkPresses) window.addEventListener(type, plainLinksUntilHydrated, true);
  const painted = new Promise((resolve) => {
    if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) return requestAnimationFrame(resolve);
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      resolve(undefined);
    }).observe({ type: "paint", buffered: true });
  });
  const loaded = new Promise((resolve) => window.addEventListener("load", resolve));
  void Promise.all([painted, loaded]).then(load);
  setTimeout(load, 3000);
}

const loaderSource = inlineCall(loadModulesAfterPaint, INERT_PRELOAD_REL, INERT_MODULE_TYPE);

/**
 * Makes Remix's module preloads and module script inert and adds the loader before </body>.
 * `html` may be any part of the document that does not end inside a tag (see splitAtOpenTag).
 */
export function deferModuleScripts(html: string, nonce: string | undefined): string {
  return html
    .replace(PRELOAD, `<link rel="${INERT_PRELOAD_REL}"`)
    .replace(MODULE_SCRIPT, `<script$1 type="${INERT_MODULE_TYPE}"`)
    .replace("</body>", () => `<script${nonce ? ` nonce="${nonce}"` : ""}>${loaderSource}</script></body>`);
}

/** Longer than any tag the rewrite looks for: how much of a chunk's end may wait for the next chunk. */
const LONGEST_TAG = 200;

/** Splits text into the part that is safe to rewrite now and a tag left open at its end. */
export function splitAtOpenTag(text: string): [ready: string, rest: string] {
  const open = text.lastIndexOf("<");
  if (open === -1 || text.indexOf(">", open) !== -1 || text.length - open > LONGEST_TAG) return [text, ""];
  return [text.slice(0, open), text.slice(open)];
}
