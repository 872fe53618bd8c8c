import { afterEach, describe, expect, it, vi } from "vitest";
import {
  SCROLL_POSITIONS_KEY,
  keyHistoryEntry,
  restoreSavedScroll,
  restoreSavedScrollScript,
} from "~/document/scroll-restoration";

/** A window with just what the scroll code touches, recording what it does. */
function fakeWindow(state: unknown, stored: string | null) {
  const storage = { getItem: vi.fn(() => stored), removeItem: vi.fn() };
  const history = { state, replaceState: vi.fn((next: unknown) => (history.state = next)) };
  return { history, sessionStorage: storage, scrollTo: vi.fn() };
}

function install(fake: ReturnType<typeof fakeWindow>) {
  vi.stubGlobal("window", fake);
  return fake;
}

afterEach(() => vi.unstubAllGlobals());

describe("restoreSavedScroll (inline, before the first paint)", () => {
  it("leaves storage alone for a new history entry, which cannot have a saved position", () => {
    const page = install(fakeWindow(null, "{}"));
    restoreSavedScroll(SCROLL_POSITIONS_KEY);
    expect(page.sessionStorage.getItem).not.toHaveBeenCalled();
    expect(page.scrollTo).not.toHaveBeenCalled();
  });

  it("scrolls a reloaded entry back to the position saved under its key", () => {
    const page = install(fakeWindow({ key: "k1" }, JSON.stringify({ k1: 640, k2: 10 })));
    restoreSavedScroll(SCROLL_POSITIONS_KEY);
    expect(page.sessionStorage.getItem).toHaveBeenCalledWith("positions");
    expect(page.scrollTo).toHaveBeenCalledWith({ top: 640, behavior: "instant" });
  });

  it("does nothing for a keyed entry without a saved position", () => {
    const page = install(fakeWindow({ key: "k3" }, JSON.stringify({ k1: 640 })));
    restoreSavedScroll(SCROLL_POSITIONS_KEY);
    expect(page.scrollTo).not.toHaveBeenCalled();
  });

  it("drops unreadable saved positions instead of throwing", () => {
    const page = install(fakeWindow({ key: "k1" }, "{not json"));
    expect(() => restoreSavedScroll(SCROLL_POSITIONS_KEY)).not.toThrow();
    expect(page.sessionStorage.removeItem).toHaveBeenCalledWith("positions");
  });

  it("works as the inline script the page gets: self-contained, with the storage key filled in", () => {
    const page = install(fakeWindow({ key: "k1" }, JSON.stringify({ k1: 90 })));
    new Function(restoreSavedScrollScript)();
    expect(page.sessionStorage.getItem).toHaveBeenCalledWith(SCROLL_POSITIONS_KEY);
    expect(page.scrollTo).toHaveBeenCalledWith({ top: 90, behavior: "instant" });
  });
});

describe("keyHistoryEntry (before the router starts)", () => {
  it("gives a new entry a random key", () => {
    const first = install(fakeWindow(null, null));
    keyHistoryEntry();
    const second = install(fakeWindow(null, null));
    keyHistoryEntry();
    const keyOf = (page: typeof first) => (page.history.state as { key: string }).key;
    expect(keyOf(first)).toMatch(/^[0-9a-v]{6,}$/);
    expect(keyOf(first)).not.toBe(keyOf(second));
  });

  it("keeps the key of an entry that has one, so its saved position still matches", () => {
    const page = install(fakeWindow({ key: "k1", idx: 2 }, null));
    keyHistoryEntry();
    expect(page.history.replaceState).not.toHaveBeenCalled();
    expect(page.history.state).toEqual({ key: "k1", idx: 2 });
  });
});
