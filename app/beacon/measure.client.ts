/**
 * Readers' Web Vitals, measured in their browser and sent to the site's own origin (docs/decisions/047).
 * Loaded once the page is hydrated (use-web-vitals.ts), so after its first paint: the observers read what
 * the browser buffered before. No cookie, no storage, no identifier: a beacon carries the path and query of
 * the page it measured, its referrer and the values, nothing else, and readers whose browser asks not to be
 * tracked send none.
 *
 * One report per page the reader saw, sent once, when the page is hidden or the reader navigates on:
 * - the page as loaded: LCP, FCP, TTFB, CLS and INP; paints after the tab was first hidden are not
 *   counted (a tab opened in the background), times of a prerendered page start at its activation;
 * - a page restored from the back/forward cache: CLS and INP from the restore on (its paints are not
 *   counted: a restore shows the page at once, and would make the load's LCP look better than it is);
 * - each page of a client-side navigation: CLS and INP from the navigation on (browsers give no paint
 *   timings for it). The previous page's report is sent first, with the entries still queued for it.
 *
 * With each report, what the reader did on the page (docs/decisions/052): the article's end reached, the
 * time the page was shown with the reader active, the clicks the page marks to count (`data-count`, and
 * `data-shown` for a dialog opened: the donation pop-up), links to other hosts and frames clicked into.
 * A page shown again after its report went sends what followed as a continuation, which is no new view.
 */
import { BEACON_PATH } from "./beacon-path";

type Metric = "LCP" | "FCP" | "TTFB" | "INP" | "CLS";
type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
type Interaction = PerformanceEntry & { interactionId?: number; target?: Node | null };

// The open report: the page's path and query, when it began, its values (and the element responsible), whether sent.
let path: string | undefined;
let q = "";
let from = 0;
let values: Partial<Record<Metric, [number, string]>> = {};
let sent = false;
/** When the page was first hidden, if before measuring began: a paint after that was not waited for. */
let hiddenAt = Infinity;
/** When a prerendered page was activated: its times start there. */
let activation = 0;
// The report's current CLS session window (shifts less than 1 s apart, 5 s at most), its largest shift's element.
let windowValue = 0;
let windowFirst = 0;
let windowLast = 0;
let windowLargest = 0;
let windowElement = "";
/** Each observer's queued entries, handed over before a report is sent. */
const pending: (() => void)[] = [];
// What the reader did on the open report's page: [kind, host] in order; milliseconds shown with the reader
// active; their last sign while the page was shown (-1: hidden since); 1 for a continuation.
let acts: [string, string?][] = [];
let engaged = 0;
let last = 0;
let more: 1 | undefined;
/** Watches the article's end: the last element of its body (app/components/blog/ArticleParts.tsx). */
let ends: IntersectionObserver | undefined;
/** A reader who gave no sign for longer than this (a tab left open, a phone put down) is not engaged meanwhile. */
const IDLE_MS = 30_000;

const supports = (type: string) => PerformanceObserver.supportedEntryTypes?.includes(type);
const sinceActivation = (time: number) => Math.max(time - activation, 0);

/**
 * A short CSS-like path: up to four tag names from the element up, stopping at one with an id. The server
 * takes only what has this form and a bounded number of them (app/beacon/culprits.server.ts).
 */
function selector(node: Node | null | undefined): string {
  let element = node instanceof Element ? node : node?.parentElement;
  let selected = "";
  for (let depth = 0; element && element !== document.body && depth < 4; depth++) {
    selected = element.localName + (element.id && `#${element.id}`) + (selected && `>${selected}`);
    element = element.id ? null : element.parentElement;
  }
  return selected;
}

/** A value (milliseconds; CLS its score) and the element responsible, if any ("": none). */
function set(metric: Metric, value: number, element = "") {
  values[metric] = [value, element];
}

/** A sign of the reader: the time since the last one counts, up to IDLE_MS, if the page was shown meanwhile. */
function active() {
  const now = performance.now();
  if (last >= 0) engaged += Math.min(now - last, IDLE_MS);
  last = document.hidden ? -1 : now;
}

const act = (kind: string, key?: string) => acts.push([kind, key]);

function begin(page: string, time: number) {
  path = page;
  q = location.search;
  from = time;
  values = {};
  sent = false;
  acts = [];
  engaged = 0;
  more = undefined;
  last = document.hidden ? -1 : time;
  ends?.disconnect();
  const end = document.querySelector(".article-body>:last-child");
  if (end) {
    (ends ||= new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        act("read_end");
        ends!.disconnect();
      }
    })).observe(end);
  }
  // The first shift opens a window.
  windowLast = -Infinity;
  // A page without a shift has a CLS of 0, which counts as much as a bad one.
  if (supports("layout-shift")) set("CLS", 0);
}

function send() {
  active();
  for (const take of pending) take();
  if (sent) return;
  sent = true;
  // Each report is also the page's view (decision 050): sent with no values too (Firefox, Safari after a navigation).
  navigator.sendBeacon(
    BEACON_PATH,
    JSON.stringify({
      v: 1,
      kind: "vitals",
      path,
      metrics: values,
      q,
      r: document.referrer,
      a: acts,
      e: engaged,
      c: more,
    }),
  );
}

/** Entries of a type, buffered ones first, for the open report, from its start on. */
function observe<T extends PerformanceEntry>(type: string, handle: (entry: T) => void) {
  if (!supports(type)) return;
  const take = (entries: PerformanceEntryList) => {
    for (const entry of entries) if (!sent && entry.startTime >= from) handle(entry as T);
  };
  const observer = new PerformanceObserver((list) => take(list.getEntries()));
  // The threshold is for event timing (INP), the lowest it takes; other types ignore it.
  observer.observe({ type, buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
  pending.push(() => take(observer.takeRecords()));
}

function start(page: string) {
  const navigation = performance.getEntriesByType("navigation")[0] as
    (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
  activation = navigation?.activationStart ?? 0;
  // A prerendered page was hidden until its activation: only a hiding after it counts.
  hiddenAt =
    performance
      .getEntriesByType("visibility-state")
      .find((entry) => entry.name === "hidden" && entry.startTime >= activation)?.startTime ??
    (document.hidden ? 0 : Infinity);
  begin(page, 0);
  if (navigation?.responseStart) set("TTFB", sinceActivation(navigation.responseStart));

  observe("paint", (entry) => {
    if (entry.name === "first-contentful-paint" && entry.startTime < hiddenAt)
      set("FCP", sinceActivation(entry.startTime));
  });
  observe<LargestContentfulPaint>("largest-contentful-paint", (entry) => {
    if (entry.startTime < hiddenAt) set("LCP", sinceActivation(entry.startTime), selector(entry.element));
  });
  observe<Shift>("layout-shift", (entry) => {
    if (entry.hadRecentInput) return;
    if (entry.startTime - windowLast > 1000 || entry.startTime - windowFirst > 5000) {
      windowValue = windowLargest = 0;
      windowFirst = entry.startTime;
    }
    windowValue += entry.value;
    windowLast = entry.startTime;
    if (entry.value > windowLargest) {
      windowLargest = entry.value;
      windowElement = selector(entry.sources?.find((source) => source.node)?.node);
    }
    if (windowValue > (values.CLS?.[0] ?? 0)) set("CLS", windowValue, windowElement);
  });
  observe<Interaction>("event", (entry) => {
    // INP: the slowest interaction (the longest of its events). The standard leaves out one in 50 on pages
    // with more than 50; a reader here makes a few, and the bytes went to the budget (decision 47).
    if (entry.interactionId && entry.duration > (values.INP?.[0] ?? -1))
      set("INP", entry.duration, selector(entry.target));
  });

  // Once hidden, the report is sent and takes nothing more: a paint after that is not counted. Shown again,
  // what the reader does next goes in a continuation (its values are not the page's: the server leaves them).
  addEventListener("visibilitychange", () => {
    active();
    if (document.hidden) send();
    else if (sent) {
      sent = false;
      more = 1;
      acts = [];
      engaged = 0;
    }
  });
  addEventListener("pagehide", send);
  for (const type of ["scroll", "keydown", "pointerdown", "pointermove"])
    addEventListener(type, active, { passive: true });
  for (const type of ["click", "auxclick"]) {
    addEventListener(type, (event) => {
      const target = event.target as HTMLElement;
      const link = target.closest?.("a");
      if (target.dataset?.count) act(target.dataset.count);
      if (link && link.host !== location.host) act("outbound", link.hostname);
    });
  }
  addEventListener(
    "toggle",
    (event) => {
      const { open, dataset } = event.target as HTMLDialogElement;
      if (open && dataset.shown) act(dataset.shown);
    },
    true,
  );
  // Clicking into a frame (a video, an embed) moves the focus out of the page.
  addEventListener("blur", () => {
    const frame = document.activeElement;
    if (frame instanceof HTMLIFrameElement) act("embed", new URL(frame.src).hostname);
  });
  addEventListener("pageshow", (event) => {
    if (event.persisted) begin(path!, event.timeStamp);
  });
}

/**
 * Measures the page at `page` (its path): the first call starts measuring (once a prerendered page is
 * activated); each later one is a client-side navigation, which sends the previous page's report and
 * begins one for the next. Nothing at all for readers whose browser sends Global Privacy Control or Do
 * Not Track, and for browsers driven by automation (navigator.webdriver: crawlers and test runs).
 */
export function measure(page: string) {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.globalPrivacyControl || nav.doNotTrack === "1" || nav.webdriver) return;
  if (path !== undefined) {
    send();
    return begin(page, performance.now());
  }
  path = "";
  if ((document as Document & { prerendering?: boolean }).prerendering)
    addEventListener("prerenderingchange", () => start(page));
  else start(page);
}
