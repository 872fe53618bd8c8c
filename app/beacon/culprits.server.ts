import type { WebVital } from "~/metrics/record.server";
import { THRESHOLDS } from "./thresholds";

/** The metrics whose worst values name what was responsible. */
const NAMED: ReadonlySet<WebVital> = new Set(["LCP", "INP", "CLS"]);

/** What a browser sends (measure.client.ts): tags and ids, child after parent, at most 100 characters. */
const SELECTOR = /^[a-z][\w-]*(?:#[\w-]+)?(?:>[a-z][\w-]*(?:#[\w-]+)?)*$/i;

/**
 * The label of the element (LCP, CLS) or interaction target (INP) responsible for a value beyond good;
 * undefined for a good value and for the metrics that have none. Each metric keeps the first
 * `perMetric` distinct selectors it is given by name; any other, or one not of the browser's form, is
 * "other", and a report without one (the element was gone) "unknown". So the labels are bounded whatever
 * the beacons say.
 */
export function culpritLabels(perMetric = 30) {
  const kept = new Map<WebVital, Set<string>>();
  return (metric: WebVital, value: number, selector: string | undefined): string | undefined => {
    if (!NAMED.has(metric) || value <= THRESHOLDS[metric].good) return undefined;
    if (!selector) return "unknown";
    if (selector.length > 100 || !SELECTOR.test(selector)) return "other";
    let names = kept.get(metric);
    if (!names) kept.set(metric, (names = new Set()));
    if (names.has(selector)) return selector;
    if (names.size >= perMetric) return "other";
    names.add(selector);
    return selector;
  };
}
