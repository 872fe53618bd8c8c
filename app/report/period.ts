import { z } from "zod";
import { dayOf } from "~/counts/tally";

/** The periods a report covers, in days ending today (UTC, as the counts' days). */
export const REPORT_DAYS = [7, 30, 90] as const;
export type ReportDays = (typeof REPORT_DAYS)[number];
export const DEFAULT_DAYS: ReportDays = 30;

/** A period of whole days, both ends included, and each of its days in order. */
export type Period = { days: ReportDays; from: string; to: string; each: string[] };

/** Pure: the `days` days that end with the day of `now`. */
export function periodOf(days: ReportDays, now: Date): Period {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const each = Array.from({ length: days }, (_, index) => dayOf(new Date(end - (days - 1 - index) * 86_400_000)));
  return { days, from: each[0]!, to: each.at(-1)!, each };
}

/** A site's label is a host name or "default": nothing longer than a host name can be one. */
const MAX_SITE_LENGTH = 253;

const choice = z.object({
  site: z.string().min(1).max(MAX_SITE_LENGTH).optional(),
  days: z
    .enum(REPORT_DAYS.map(String) as ["7", "30", "90"], { error: `days must be one of ${REPORT_DAYS.join(", ")}` })
    .optional()
    .transform((days) => (days ? (Number(days) as ReportDays) : DEFAULT_DAYS)),
});

export type ReportChoice = { site?: string; days: ReportDays };

/**
 * Pure: what a report is asked for, from the page's query or the command's options: a site by its label
 * (checked against the sites by the caller) and one of REPORT_DAYS. Each may be given once; anything
 * else is a problem to show, never a guess.
 */
export function parseChoice(
  values: Record<string, string[]>,
): { ok: true; choice: ReportChoice } | { ok: false; problem: string } {
  for (const name of ["site", "days"]) {
    if ((values[name]?.length ?? 0) > 1) return { ok: false, problem: `${name} may be given once` };
  }
  const parsed = choice.safeParse({ site: values.site?.[0], days: values.days?.[0] });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      problem:
        issue.path[0] === "site" ? `site must be a site's name of 1 to ${MAX_SITE_LENGTH} characters` : issue.message,
    };
  }
  return { ok: true, choice: parsed.data };
}
