import type { Act } from "./counter.server";
import { hostKey } from "./sources";
import { HOST_ACTS, type ActKind } from "./tally";

/** What a page's script reports a reader did (app/beacon/measure.client.ts); donate_panel comes only from the no-script image. */
export const REPORTED_ACTS = [
  "read_end",
  "donate_shown",
  "donate_later",
  "donate_backdrop",
  "donate_now",
  "outbound",
  "embed",
] as const satisfies ActKind[];
type ReportedAct = (typeof REPORTED_ACTS)[number];
const reported = new Set<string>(REPORTED_ACTS);

/** Acts of one report counted, at most: a reader clicks a few links on a page; the rest are left out. */
export const MAX_ACTS_PER_REPORT = 20;
/** Engaged time counted for one report, at most: half an hour of reading. */
export const MAX_ENGAGED_SECONDS = 1800;

const byHost = new Set<string>(HOST_ACTS);

/**
 * Pure: a report's acts as counts, within their bounds. `acts` are the report's [kind, host] pairs, in the
 * order the reader made them; `engagedMs` the milliseconds the page was shown with the reader active.
 * - The article's end counts once per report, however often it is named.
 * - Engaged time counts in whole seconds, at most MAX_ENGAGED_SECONDS.
 * - Outbound links and embeds count by host (hostKey: none, or the site's own, is not counted).
 * - At most MAX_ACTS_PER_REPORT acts are read; a kind not in REPORTED_ACTS is left out.
 */
export function actsOf(
  acts: readonly (readonly [string, (string | null)?])[],
  engagedMs: number | undefined,
  ownHost: string,
): Act[] {
  const counted: Act[] = [];
  const own = hostKey(ownHost);
  let ended = false;
  for (const [name, key] of acts.slice(0, MAX_ACTS_PER_REPORT)) {
    if (!reported.has(name)) continue;
    const kind = name as ReportedAct;
    if (kind === "read_end") {
      if (!ended) counted.push({ kind, key: "", n: 1 });
      ended = true;
    } else if (byHost.has(kind)) {
      const host = hostKey(key ?? "");
      if (host && host !== own) counted.push({ kind, key: host, n: 1 });
    } else counted.push({ kind, key: "", n: 1 });
  }
  const seconds = Math.round(Math.min(engagedMs ?? 0, MAX_ENGAGED_SECONDS * 1000) / 1000);
  if (seconds > 0) counted.push({ kind: "engaged_seconds", key: "", n: seconds });
  return counted;
}
