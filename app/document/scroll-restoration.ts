/**
 * Scroll restoration with the first paint kept free of storage calls (docs/decisions/011).
 *
 * Remix's <ScrollRestoration> puts an inline script in every page that gives the history entry a key and
 * reads sessionStorage before the first paint. The first sessionStorage access of a page waits on the
 * browser process; in Lighthouse traces that cost 7–30 ms on the main thread, while the page was still
 * loading. Only a reload or a return to an entry keyed earlier can have a saved position, so the inline
 * part here reads storage only for those; a new entry gets its key in entry.client, before the router
 * starts. React Router's hook saves the positions as before, under the same storage key.
 */
import { inlineCall } from "./inline-script";

export const SCROLL_POSITIONS_KEY = "positions";

/**
 * Runs inline, before the first paint (serialised by inlineCall: self-contained, no comments). Puts back the
 * scroll position saved for this history entry, if it has one: at once, not with the page's smooth
 * scrolling, which would scroll the reloaded page down before the reader's eyes.
 */
export function restoreSavedScroll(storageKey: string) {
  const entryKey = window.history.state?.key;
  if (!entryKey) return;
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(storageKey) || "{}")[entryKey];
    if (typeof saved === "number") window.scrollTo({ top: saved, behavior: "instant" });
  } catch {
    window.sessionStorage.removeItem(storageKey);
  }
}

export const restoreSavedScrollScript = inlineCall(restoreSavedScroll, SCROLL_POSITIONS_KEY);

/** Gives a new history entry the key its scroll position is saved under (what Remix's inline script did). */
export function keyHistoryEntry() {
  if (window.history.state?.key) return;
  window.history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
}
