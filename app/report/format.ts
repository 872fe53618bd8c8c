import type { FediverseDay } from "./figures";
import type { WebVital } from "~/metrics/record.server";
import type { Period } from "./period";

/** Shown where a figure has nothing to be made of yet: never a 0 % that would mean "nobody". */
export const NO_DATA = "no data yet";

const whole = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

export const count = (n: number) => whole.format(Math.round(n));

/** A share as a percentage with one decimal, or NO_DATA. */
export const percent = (share: number | undefined) => (share === undefined ? NO_DATA : `${(share * 100).toFixed(1)}%`);

/** Seconds as "42 s" or "3 min 05 s", or NO_DATA. */
export function duration(seconds: number | undefined): string {
  if (seconds === undefined) return NO_DATA;
  const rounded = Math.round(seconds);
  if (rounded < 60) return `${rounded} s`;
  return `${Math.floor(rounded / 60)} min ${String(rounded % 60).padStart(2, "0")} s`;
}

/** A Web Vital in its usual unit: CLS as a score, INP in milliseconds, the others in seconds. */
export function vital(metric: WebVital, value: number | undefined): string {
  if (value === undefined) return "–";
  if (metric === "CLS") return value.toFixed(2);
  if (metric === "INP" || value < 1) return `${Math.round(value * 1000)} ms`;
  return `${value.toFixed(2)} s`;
}

const TEMPLATES: Record<string, string> = {
  "": "Whole site",
  "routes/_index": "Home page",
  "routes/blog._index": "Blog list",
  "routes/blog.$slug": "Articles",
  "routes/search": "Search",
  "routes/keywords.$keyword": "Keyword pages",
  other: "Other addresses",
};

/** A page as counted ("/blog/<slug>", a route id, "other") or a template, as an operator reads it. */
export const pageName = (page: string) => TEMPLATES[page] ?? page;

export const periodName = (period: Period) => `last ${period.days} days, ${period.from} to ${period.to} (UTC)`;

/** The sources' kinds, as headings. */
export const SOURCE_NAMES = {
  referrer: "Referring sites",
  utm_source: "utm_source",
  utm_medium: "utm_medium",
  utm_campaign: "utm_campaign",
} as const;

/** The columns of the social web's table, page and text alike. */
export const FEDIVERSE_HEAD = ["Day", "Followers", "New", "Left", "Delivered", "Failed tries", "Given up"];
export const fediverseCells = (day: FediverseDay) => [
  day.day,
  day.followers === undefined ? "–" : count(day.followers),
  count(day.follows),
  count(day.unfollows),
  count(day.delivered),
  count(day.failed),
  count(day.givenUp),
];
