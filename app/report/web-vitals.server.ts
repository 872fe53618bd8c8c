import type { Sample } from "~/metrics/exposition";
import type { WebVital } from "~/metrics/record.server";
import { PREFIX, WEB_VITAL_SERIES } from "~/metrics/series.server";
import { ratingOf, type Rating } from "~/beacon/thresholds";

export const WEB_VITALS: readonly WebVital[] = ["LCP", "INP", "CLS", "FCP", "TTFB"];

export type VitalFigure = { metric: WebVital; pages: number; p75?: number; rating?: Rating };
export type TemplateVitals = { route: string; pages: number; metrics: VitalFigure[] };
/** One process's histograms since it started (`since`, ms since the epoch, when the exposition has it). */
export type Vitals = { since?: number; templates: TemplateVitals[] };

/**
 * Pure: the value below which a share `q` of a histogram's observations fall, interpolated within its
 * bucket as Prometheus's histogram_quantile does: undefined without observations, and the highest finite
 * bound when the rank falls in the +Inf bucket. `buckets` are cumulative, by upper bound, +Inf last.
 */
export function histogramQuantile(q: number, buckets: { le: number; count: number }[]): number | undefined {
  const total = buckets.at(-1)?.count ?? 0;
  if (total <= 0) return undefined;
  const rank = q * total;
  const index = buckets.findIndex((bucket) => bucket.count >= rank);
  const bucket = buckets[index]!;
  if (bucket.le === Infinity) return buckets[index - 1]?.le;
  const lower = index > 0 ? buckets[index - 1]! : { le: 0, count: 0 };
  if (bucket.count === lower.count) return bucket.le;
  return lower.le + ((bucket.le - lower.le) * (rank - lower.count)) / (bucket.count - lower.count);
}

/**
 * Pure: the p75 of each Web Vital per route template of one site, from an exposition's samples (this
 * process's: app/metrics/series.server.ts), the templates with the most pages measured first.
 */
export function vitalsOf(all: Sample[], site: string): Vitals {
  const buckets = new Map<string, { le: number; count: number }[]>();
  const names = new Map(WEB_VITALS.map((metric) => [`${PREFIX}${WEB_VITAL_SERIES[metric]}_bucket`, metric]));
  for (const { name, labels, value } of all) {
    const metric = names.get(name);
    if (!metric || labels.site !== site || labels.route === undefined || labels.le === undefined) continue;
    const id = `${labels.route}\0${metric}`;
    let list = buckets.get(id);
    if (!list) buckets.set(id, (list = []));
    list.push({ le: labels.le === "+Inf" ? Infinity : Number(labels.le), count: value });
  }
  const routes = new Set([...buckets.keys()].map((id) => id.split("\0")[0]!));
  const templates = [...routes].map((route) => {
    const metrics = WEB_VITALS.map((metric): VitalFigure => {
      const list = (buckets.get(`${route}\0${metric}`) ?? []).sort((a, b) => a.le - b.le);
      const p75 = histogramQuantile(0.75, list);
      return {
        metric,
        pages: list.at(-1)?.count ?? 0,
        p75,
        rating: p75 === undefined ? undefined : ratingOf(metric, p75),
      };
    });
    // A page's report may lack some metrics (no LCP after a client-side navigation): the most any has.
    return { route, pages: Math.max(...metrics.map((figure) => figure.pages)), metrics };
  });
  templates.sort((a, b) => b.pages - a.pages || a.route.localeCompare(b.route));
  const start = all.find((sample) => sample.name === "process_start_time_seconds")?.value;
  return {
    since: start === undefined ? undefined : start * 1000,
    templates: templates.filter((template) => template.pages > 0),
  };
}
