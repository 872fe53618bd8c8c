import { parseArgs } from "node:util";
import { samples } from "~/metrics/exposition";
import { createPool } from "~/database/postgres.server";
import { getSettings, parseSettings } from "~/site/config.server";
import { readSites } from "~/site/sites.server";
import { parseChoice, REPORT_DAYS } from "./period";
import { makeReport } from "./report.server";
import { reportText } from "./text";

const USAGE = `npm run report -- [--site NAME] [--days ${REPORT_DAYS.join("|")}] [--metrics URL]

The operator's report in the terminal: the same figures as GET /report on the metrics listener. Counts
are read from the sites' stores (CATALOGUE_DIR, or CATALOGUE_DATABASE_URL), with the settings the site runs
with (the same environment and SITES_FILE); Web Vitals from a running process's /metrics (by default
METRICS_HOST:METRICS_PORT's). Run it as the user the site runs as.
  --site     a site's name (its first host in the sites file, "default" without one); the first site if none
  --days     the period, ending today (UTC); 30 if none
  --metrics  the exposition to read Web Vitals from, such as http://127.0.0.1:9464/metrics
`;

/** An origin's exposition is a few hundred KB; far more is no exposition of ours. */
const MAX_EXPOSITION_BYTES = 32 * 1024 * 1024;

/** The exposition of a running process, bounded in time and size: its Web Vitals are in no store. */
async function exposition(url: string | undefined) {
  if (!url) throw new Error("METRICS_PORT is not set, so no process measures them (or give --metrics)");
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) }).catch((error: Error) => {
    throw new Error(`no answer from ${url} (${error.cause instanceof Error ? error.cause.message : error.message})`);
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_EXPOSITION_BYTES)
    throw new Error(`${url} answers more than 32 MB`);
  const text = await response.text();
  if (text.length > MAX_EXPOSITION_BYTES) throw new Error(`${url} answered more than 32 MB`);
  return samples(text);
}

/** Where the report and the problems are written (the process's standard output and error). */
type Output = { write(text: string): unknown };

/** `npm run report`: writes the report, or what is wrong, and answers the exit code (0, 1 a problem, 2 a usage error). */
export async function runReport(
  argv: string[],
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        site: { type: "string", multiple: true },
        days: { type: "string", multiple: true },
        metrics: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    err.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) return (out.write(USAGE), 0);
  const choice = parseChoice({ site: values.site ?? [], days: values.days ?? [] });
  if (!choice.ok) return (err.write(`${choice.problem}\n\n${USAGE}`), 2);
  const checked = parseSettings(process.env);
  if (!checked.ok)
    return (
      err.write(
        `These settings are wrong (see .env.example):\n${checked.problems.map((problem) => `  - ${problem}`).join("\n")}\n`,
      ),
      1
    );
  const settings = getSettings();
  const sites = readSites(settings);
  if (!sites.ok)
    return (
      err.write(`The sites file is wrong:\n${sites.problems.map((problem) => `  - ${problem}`).join("\n")}\n`),
      1
    );
  // The counts are read from the catalogue database when there is one, through a pool of the report's own.
  const pool = settings.catalogue.database ? createPool(settings.catalogue.database) : undefined;
  const listener =
    settings.metrics &&
    `http://${/^(0\.0\.0\.0|::)$/.test(settings.metrics.host) ? "127.0.0.1" : settings.metrics.host}:${settings.metrics.port}/metrics`;
  try {
    const made = await makeReport(sites.sites, { dir: settings.catalogue.dir, pool }, choice.choice, () =>
      exposition(values.metrics ?? listener),
    );
    if (!made.ok) return (err.write(`${made.problem} Sites: ${made.sites.join(", ")}\n`), 1);
    out.write(reportText(made.report));
    return 0;
  } catch (error) {
    err.write(`The report could not be made: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await pool?.end();
  }
}
