import type { Sample } from "~/metrics/exposition";
import type { SiteSettings } from "~/site/config.server";
import { figuresOf, type Figures } from "./figures";
import { periodOf, type ReportChoice } from "./period";
import { readSiteCounts, type CountStores } from "./stores.server";
import { vitalsOf, type Vitals } from "./web-vitals.server";

/** What both renderers show: the page (page.server.tsx) and the terminal (text.ts). */
export type Report = {
  site: string;
  /** Every site's label, for choosing another. */
  sites: string[];
  figures: Figures;
  /** This process's Web Vitals, or why there are none to show. */
  vitals: Vitals | { unavailable: string };
  /** The stores read (one per catalogue), and how many more the site has beyond MAX_STORES. */
  stores: string[];
  unread: number;
  made: Date;
};

export type ReportResult = { ok: true; report: Report } | { ok: false; status: 404; problem: string; sites: string[] };

/**
 * The operator's report on one site: its counts for the period, from its stores, and the Web Vitals a
 * process measured, from that process's exposition (`exposition` says why there is none when it throws).
 * Without a site chosen, the first site's.
 */
export async function makeReport(
  sites: readonly SiteSettings[],
  stores: CountStores,
  choice: ReportChoice,
  exposition: () => Promise<Sample[]>,
  now = new Date(),
): Promise<ReportResult> {
  const labels = sites.map((site) => site.label);
  const site = choice.site === undefined ? sites[0] : sites.find((candidate) => candidate.label === choice.site);
  if (!site)
    return {
      ok: false,
      status: 404,
      problem: choice.site === undefined ? "This process serves no site." : `No site is named "${choice.site}".`,
      sites: labels,
    };
  const period = periodOf(choice.days, now);
  const [counts, vitals] = await Promise.all([
    readSiteCounts(site, period, stores),
    exposition().then(
      (all) => vitalsOf(all, site.label),
      (error: Error) => ({ unavailable: error.message }),
    ),
  ]);
  return {
    ok: true,
    report: {
      site: site.label,
      sites: labels,
      figures: figuresOf(counts.stores, period),
      vitals,
      stores: counts.names,
      unread: counts.unread,
      made: now,
    },
  };
}
