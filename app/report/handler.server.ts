import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import { samples } from "~/metrics/exposition";
import type { SiteSettings } from "~/site/config.server";
import { problemPage, reportPage, REPORT_POLICY } from "./page.server";
import { parseChoice } from "./period";
import { makeReport } from "./report.server";
import type { CountStores } from "./stores.server";

/** The longest address the report takes: its query has a site's name and a period, nothing longer. */
const MAX_URL_LENGTH = 1024;

/**
 * GET /report on the metrics listener (server/metrics-listener.ts), never on the public port: the
 * report of one site and period, its Web Vitals from this process's own series (`registry`). A request it
 * cannot answer gets a page saying why with its status (400, 404, 405, 414), a failure inside a 500 page
 * with one line in the log; never a stack trace.
 */
export function reportHandler(registry: Registry, sites: () => readonly SiteSettings[], stores: CountStores) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, html: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": REPORT_POLICY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        ...headers,
      });
      res.end(req.method === "HEAD" ? undefined : html);
    };
    const labels = () => sites().map((site) => site.label);
    if (req.method !== "GET" && req.method !== "HEAD")
      return send(405, problemPage("Method not allowed", "The report is read with GET."), { Allow: "GET, HEAD" });
    const url = req.url ?? "";
    if (url.length > MAX_URL_LENGTH)
      return send(
        414,
        problemPage("Address too long", `The report's address has at most ${MAX_URL_LENGTH} characters.`, labels()),
      );
    const query = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
    const parsed = parseChoice({ site: query.getAll("site"), days: query.getAll("days") });
    if (!parsed.ok) return send(400, problemPage("This report cannot be made", `${parsed.problem}.`, labels()));
    try {
      const made = await makeReport(sites(), stores, parsed.choice, async () => samples(await registry.metrics()));
      if (!made.ok) return send(made.status, problemPage("No such site", made.problem, made.sites));
      send(200, reportPage(made.report));
    } catch (error) {
      console.error(`Report: ${(error as Error).message}`);
      send(500, problemPage("The report could not be made", "Its store could not be read; the log says why."));
    }
  };
}
