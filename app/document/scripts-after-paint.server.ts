/**
 * The page's JavaScript is fetched after the first paint, so on a slow phone the stylesheet, the text and
 * the images in view get the connection first (docs/decisions/013, 024).
 *
 * <ScriptsAfterPaint> (app/components) renders Remix's <Scripts> with each module preload given
 * `media="not all"`, which the browser does not fetch, and the module script as a data block; this loader,
 * rendered after them, puts live copies in once the page has painted. Server only: the browser has it in
 * the page and never needs its source in a bundle.
 */
import { inlineCall } from "./inline-script";

import { HELD_MEDIA, HELD_MODULE_TYPE } from "./hold-module-scripts";

/**
 * Runs in the page (serialised into an inline script). Once the page has loaded (stylesheet, images in
 * view) and its first contentful paint is on screen, it adds live module preloads, one per task (each
 * starts a request; twelve in one task made a long task), then the module script. A timer starts them
 * anyway if an image holds up the load event, or in a background tab, which paints nothing; the next task
 * comes from a message channel, as timers are slowed in background tabs.
 *
 * Until React has taken over (the root marks the html element data-hydrated), a link is a plain link:
 * React does not see presses on it. React 18 would otherwise finish its hydration inside the press,
 * which can fail (error #345). Serialised by inlineCall: self-contained, no comments inside. Its layout
 * is the page's bytes (the server bundle prints it as written), hence kept out of the formatter's hands.
 */
// prettier-ignore
function loadModulesAfterPaint(heldMedia: string, heldType: string) {
  let started = false;
  const load = () => {
    if (started) return;
    started = true;
    const held = document.querySelector<HTMLScriptElement>(`script[type="${heldType}"]`);
    if (!held) return;
    const preloads = [...document.querySelectorAll(`link[rel="modulepreload"][media="${heldMedia}"]`)];
    const tasks = new MessageChannel();
    const next = () => {
      const link = preloads.shift();
      if (link) {
        const live = document.createElement("link");
        live.rel = "modulepreload";
        live.href = link.getAttribute("href") ?? "";
        document.body.append(live);
        tasks.port2.postMessage(null);
        return;
      }
      const script = document.createElement("script");
      script.type = "module";
      script.textContent = held.textContent;
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

/** The loader's script text. */
export const afterPaintLoader = inlineCall(loadModulesAfterPaint, HELD_MEDIA, HELD_MODULE_TYPE);
