import type { WebVital } from "~/metrics/record.server";

/**
 * web.dev's thresholds, in seconds (CLS: its score): up to `good` a value is good, above `poor` it is
 * poor, between them it needs improvement. The culprits' labels and the operator's report read them.
 */
export const THRESHOLDS: Record<WebVital, { good: number; poor: number }> = {
  LCP: { good: 2.5, poor: 4 },
  INP: { good: 0.2, poor: 0.5 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1.8, poor: 3 },
  TTFB: { good: 0.8, poor: 1.8 },
};

export type Rating = "good" | "needs improvement" | "poor";

export const ratingOf = (metric: WebVital, value: number): Rating =>
  value <= THRESHOLDS[metric].good ? "good" : value <= THRESHOLDS[metric].poor ? "needs improvement" : "poor";
