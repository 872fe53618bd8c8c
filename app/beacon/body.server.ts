import { z } from "zod";
import type { WebVital } from "~/metrics/record.server";

/** The most a beacon's body may be, in bytes; a browser's is a few hundred. */
export const MAX_BODY_BYTES = 4096;

/**
 * A value and the CSS-like path of the element responsible (app/beacon/measure.client.ts), "" or absent
 * for none; the path becomes a label only through a bounded set (culprits.server.ts).
 */
const measured = (max: number) => z.tuple([z.number().min(0).max(max), z.string().max(200).optional()]).optional();
const milliseconds = measured(60_000);

/** What one page's report carries: each metric at most once. */
const vitals = z.strictObject({
  v: z.literal(1),
  kind: z.literal("vitals"),
  /** The page's path (no query): the route template is found on the server, never taken from the body. */
  path: z.string().startsWith("/").max(512),
  metrics: z.strictObject({
    LCP: milliseconds,
    FCP: milliseconds,
    TTFB: milliseconds,
    INP: milliseconds,
    CLS: measured(10),
  }),
  /** The page's query string (`location.search`): only its utm values are counted (app/counts/sources.ts). */
  q: z.string().max(1024).optional(),
  /** The page's `document.referrer`: only its host is counted. */
  r: z.string().max(2048).optional(),
  /**
   * What the reader did on the page (decision 052): [kind, host of the link or embed, or null]. The body's
   * size bounds the list, app/counts/acts.ts the acts counted: a kind it does not know (a page's script of
   * another version) is left out, not the report.
   */
  a: z
    .array(z.tuple([z.string().max(32), z.string().max(253).nullable()]))
    .max(400)
    .optional(),
  /** Milliseconds the page was shown with the reader active (counted up to a bound: app/counts/acts.ts). */
  e: z.number().min(0).max(86_400_000).optional(),
  /** 1: the page was shown again after its report had gone; this one carries what followed, and is no view. */
  c: z.literal(1).optional(),
});

/**
 * A beacon's body, versioned, one kind of report for now: each report but a continuation (`c`) is also
 * the page's view (decision 050), and carries what the reader did (decision 052). Another kind can come
 * through the same endpoint later as another member of this union.
 */
export const beaconBody = z.discriminatedUnion("kind", [vitals]);

export type VitalsReport = z.infer<typeof vitals>;

/** Pure: the body's text as a report, or undefined when it is not one (not JSON, unknown fields, out of range). */
export function parseBeacon(text: string): VitalsReport | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = beaconBody.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Each metric of a report in the unit of its histogram (seconds; CLS its score), with its element. */
export function vitalsOf(report: VitalsReport): { metric: WebVital; value: number; element?: string }[] {
  return (Object.entries(report.metrics) as [WebVital, [number, string?]][]).map(([metric, [value, element]]) => ({
    metric,
    value: metric === "CLS" ? value : value / 1000,
    element,
  }));
}
