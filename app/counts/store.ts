import type { Kind, Mark, Tally } from "./tally";

/**
 * Where a site's daily counts live: beside its catalogue, in the same SQLite file or PostgreSQL database
 * (docs/decisions/050), so that every origin using that catalogue shares the counts and the day's salt.
 */
export interface CountsStore {
  /**
   * The day's random salt, made by whichever process asks first; every process of the store gets the same.
   * Salts and visitor bitmaps of the days before yesterday are deleted on the way.
   */
  salt(day: string): Promise<Buffer>;
  /** Adds the counts and marks (app/counts/apply.ts) in one transaction. */
  write(tallies: Tally[], marks: Mark[]): Promise<void>;
  /** The counts of the days from `from` to `to`, both included. */
  read(from: string, to: string): Promise<Tally[]>;
  /** Per page (the site's row "" left out): each of `kinds` summed over the days from `from` to `to`, both included. */
  sums(kinds: readonly Kind[], from: string, to: string): Promise<{ kind: Kind; page: string; n: number }[]>;
  close(): Promise<void>;
}

/**
 * The counts of the days from the first parameter to the second summed over the period per kind, page
 * and key, but for the site's own rows (page "", key ""), kept per day; visitors per page are left out,
 * a day's bits being counted apart (visitorEstimate). For the operator's report: its rows are bounded by
 * the pages and keys, not by the days. `store` is the PostgreSQL store's condition, its parameters first.
 */
export function periodSumsQuery(placeholders: [string, string], store = ""): string {
  return `SELECT CASE WHEN page = '' AND key = '' THEN day ELSE '' END AS day, kind, page, key, SUM(n) AS n FROM counts
WHERE ${store}day >= ${placeholders[0]} AND day <= ${placeholders[1]} AND (kind <> 'visitors' OR page = '')
GROUP BY 1, kind, page, key`;
}
