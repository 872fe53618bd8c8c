/**
 * The page's JavaScript is fetched after the first paint, so on a slow phone the stylesheet, the text and
 * the images in view get the connection first (docs/decisions/013).
 *
 * The server reads the rendered document with a tokenizer and changes two things in Remix's <Scripts>
 * output, keeping every element (React hydrates by element): each module preload gets `media="not all"`,
 * which the browser does not fetch, and the module script becomes a data block. A small loader, added at
 * the end of <body> where React allows extra nodes, puts live copies in once the page has painted. The
 * markup stays valid HTML.
 */
import { Parser } from "htmlparser2";
import { escapeMarkup } from "~/lib/escape-markup";
import { inlineCall } from "~/lib/inline-script";

export const HELD_MEDIA = "not all";
export const HELD_MODULE_TYPE = "text/x-module-after-paint";

/**
 * Runs in the page (serialised into an inline script). Once the page has loaded (stylesheet, images in
 * view) and its first contentful paint is on screen, it adds live module preloads, one per task (each
 * starts a request; twelve in one task made a long task), then the module script. A timer starts them
 * anyway if an image holds up the load event, or in a background tab, which paints nothing; the next task
 * comes from a message channel, as timers are slowed in background tabs.
 *
 * Until React has taken over (the root marks the html element data-hydrated), a link is a plain link:
 * React does not see presses on it. React 18 would otherwise finish its hydration inside the press,
 * which can fail (error #345). Serialised by inlineCall: self-contained, no comments inside.
 */
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

const loader = `<script>${inlineCall(loadModulesAfterPaint, HELD_MEDIA, HELD_MODULE_TYPE)}</script>`;

type Edit = { start: number; end: number; text: string };

/** The document with its module preloads and module script held back, and the loader before </body>. */
export function holdScriptsUntilPainted(html: string): string {
  const edits: Edit[] = [];
  let bodyEnd: number | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      const tag = { start: parser.startIndex, end: parser.endIndex + 1 };
      if (name === "link" && attributes.rel === "modulepreload" && attributes.href && !attributes.media) {
        edits.push({ ...tag, text: `<link rel="modulepreload" href="${escapeMarkup(attributes.href)}" media="${HELD_MEDIA}"/>` });
      } else if (name === "script" && attributes.type === "module" && attributes.src === undefined) {
        edits.push({ ...tag, text: `<script type="${HELD_MODULE_TYPE}">` });
      }
    },
    onclosetag(name, implied) {
      if (name === "body" && !implied) bodyEnd = parser.startIndex;
    },
  });
  parser.end(html);
  // No module script (a page without JavaScript): nothing to hold back, and no loader.
  if (!edits.some((edit) => edit.text.startsWith("<script")) || bodyEnd === undefined) return html;
  edits.push({ start: bodyEnd, end: bodyEnd, text: loader });
  let result = html;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
