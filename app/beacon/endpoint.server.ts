import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics, type BeaconOutcome } from "~/metrics/record.server";
import { routeIdMatcher, type BuildRoute } from "~/metrics/route-id";
import { actsOf } from "~/counts/acts";
import type { Act, Counter, View } from "~/counts/counter.server";
import { pageOfPath } from "~/counts/pages.server";
import { sourcesOf } from "~/counts/sources";
import type { SiteSettings } from "~/site/config.server";
import { parseHostHeader } from "~/site/host";
import { NO_SCRIPT_PANEL_QUERY } from "./beacon-path";
import { MAX_BODY_BYTES, parseBeacon, vitalsOf } from "./body.server";
import { culpritLabels } from "./culprits.server";
import { beaconLimits } from "./rate-limit.server";
import { notCounted, readerAddress } from "./readers.server";
import { readBody } from "~/document/request-body.server";

type Request = IncomingMessage;
/** The host guard's site (server/guards.ts): the whole of its settings, though the metrics' middleware reads only its label. */
type Response = ServerResponse & { locals: { site?: { label: string } } };
const siteOfResponse = (res: Response) => res.locals.site as SiteSettings | undefined;
/** A route as the server build has it: a page's module has a component (its default export). */
type ServerRoute = BuildRoute & { module?: { default?: unknown } };

/** A body still arriving after this long is given up on. */
const READ_TIMEOUT_MS = 5_000;

/**
 * POST /__beacon (docs/decisions/047, 050, 052): each report is a view of its page, counted for the site
 * the host guard found (app/counts), with what the reader did on it; its Web Vitals go into the Prometheus
 * histograms by the route template of the page's path; nothing else from the request becomes a label. A
 * continuation (the page shown again after its report) counts what the reader did alone. GET /__beacon is
 * an image a page without JavaScript loads (app/entry.server.tsx): a view of the page its Referer names,
 * or its donation panel shown. Every
 * check that needs only the headers comes before the body is read. A beacon that is not counted (bot,
 * opted out, prefetch, over the rate) gets the same 204 as one that is; a request that cannot be a beacon
 * gets a 4xx. Never a 5xx, never a stack trace. With `counting` false (ANALYTICS=off) every request gets
 * 404; with `vitals` false (no METRICS_PORT) the Web Vitals are left out.
 */
/**
 * Where a site's beacons are counted, handed in by the site's services (app/services): the counter of the
 * site's store for the request's host, and whether a slug is one of its articles. Throws for a host beyond
 * the site's catalogues (MAX_DOMAINS_PER_SITE): nothing is counted for it.
 */
export type BeaconCounting = (
  site: SiteSettings,
  host: string,
) => { counter: Counter; isArticle: (slug: string) => Promise<boolean> };

export function beaconEndpoint(
  { counting, vitals }: { counting: boolean; vitals: boolean },
  routes: Record<string, ServerRoute | undefined>,
  countingOf: BeaconCounting,
) {
  if (!counting) return (_req: Request, res: Response) => plain(res, 404, "Not Found");
  const routeOf = routeIdMatcher(routes);
  const pages = new Set(
    Object.values(routes).flatMap((route) => (route && typeof route.module?.default === "function" ? [route.id] : [])),
  );
  const allowed = beaconLimits();
  const culprit = culpritLabels();
  const pageOf = pageOfPath(routes);
  let lastLogged = 0;

  /**
   * A view of the page at `path` (with its query and referrer, when the page's script sent them) and what
   * the reader did on it, or, for a continuation (`view` false), what they did alone; counted after the
   * answer: a beacon never waits for the store.
   */
  const count = (
    req: Request,
    site: SiteSettings,
    path: string,
    { view = true, acts = [], sources }: { view?: boolean; acts?: Act[]; sources?: View["sources"] } = {},
  ) => {
    try {
      // Throws for a domain beyond the site's catalogues (MAX_DOMAINS_PER_SITE): nothing is counted for it.
      const { counter, isArticle } = countingOf(site, req.headers.host ?? "");
      const page = pageOf(path, isArticle);
      const address = readerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"]);
      (view
        ? counter.view({ page, address, userAgent: String(req.headers["user-agent"]), sources, acts })
        : counter.acts(page, acts)
      ).catch((error: Error) => {
        // A store that is away would make a line per beacon: one a minute says it.
        if (Date.now() - lastLogged < 60_000) return;
        lastLogged = Date.now();
        console.error(`Views not counted: ${error.message}`);
      });
    } catch {
      // No catalogue for this domain: no counts either.
    }
  };

  const answer = (res: Response, outcome: BeaconOutcome, status = 204, text = "") => {
    metrics.beacon(outcome);
    if (status === 204) res.writeHead(204, { "Cache-Control": "no-store" }).end();
    else plain(res, status, text);
  };

  /**
   * The images of a page without JavaScript: its view (no query), whose path is in the Referer, which
   * checks said is the site's; or the donation panel shown (`?a=donate_panel`, app/entry.server.tsx).
   */
  const handleImage = async (req: Request, res: Response) => {
    const site = siteOfResponse(res);
    const hostName = parseHostHeader(req.headers.host)?.name ?? "";
    const dest = req.headers["sec-fetch-dest"];
    const query = (req.url ?? "").split("?")[1];
    const panel = query === NO_SCRIPT_PANEL_QUERY;
    if ((dest !== undefined && dest !== "image") || (query !== undefined && !panel))
      return answer(res, "malformed", 400, "Bad Request: not a beacon");
    const refused = notCounted(req.headers, hostName);
    const referer = req.headers.referer;
    if (
      refused === "cross_site" ||
      !site ||
      !referer ||
      !URL.canParse(referer) ||
      new URL(referer).hostname !== hostName
    )
      return answer(res, "cross_site", 403, "Forbidden");
    if (refused) return answer(res, refused);
    if (!allowed(readerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"])))
      return answer(res, "rate_limited");
    answer(res, "counted");
    if (panel) count(req, site, "", { view: false, acts: [{ kind: "donate_panel", key: "", n: 1 }] });
    else count(req, site, new URL(referer).pathname.slice(0, 512));
  };

  const handle = async (req: Request, res: Response) => {
    if (req.method === "GET") return handleImage(req, res);
    if (req.method !== "POST") {
      res.setHeader("Allow", "GET, POST");
      return answer(res, "malformed", 405, "Method Not Allowed");
    }
    const type = String(req.headers["content-type"] ?? "")
      .split(";")[0]!
      .trim()
      .toLowerCase();
    const encoding = req.headers["content-encoding"];
    if ((type !== "text/plain" && type !== "application/json") || (encoding && encoding !== "identity")) {
      return answer(res, "wrong_type", 415, "Unsupported Media Type: text/plain");
    }
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return tooLarge(res);
    const siteSettings = siteOfResponse(res);
    const site = siteSettings?.label;
    const hostName = parseHostHeader(req.headers.host)?.name ?? "";
    const refused = notCounted(req.headers, hostName);
    if (refused === "cross_site" || !site || !siteSettings) return answer(res, "cross_site", 403, "Forbidden");
    if (refused) return answer(res, refused);
    if (!allowed(readerAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"])))
      return answer(res, "rate_limited");

    const body = await readBody(req, MAX_BODY_BYTES, READ_TIMEOUT_MS);
    if (body === "too_large") return tooLarge(res);
    if (body === "too_slow") return answer(res, "malformed", 408, "Request Timeout");
    if (body === "aborted") return metrics.beacon("malformed");
    const report = parseBeacon(body.toString("utf8"));
    if (!report) return answer(res, "malformed", 400, "Bad Request: not a beacon");
    const id = routeOf(report.path);
    const route = pages.has(id) ? id : "other";
    // A continuation's values were measured after the page's report had gone: they are not the page's.
    if (vitals && !report.c)
      for (const { metric, value, element } of vitalsOf(report))
        metrics.webVital(site, route, metric, value, culprit(metric, value, element));
    answer(res, "counted");
    const acts = actsOf(report.a ?? [], report.e, hostName);
    if (report.c) count(req, siteSettings, report.path, { view: false, acts });
    else count(req, siteSettings, report.path, { acts, sources: sourcesOf(report.r ?? "", report.q ?? "", hostName) });
  };

  const tooLarge = (res: Response) => {
    // The rest of the body is not read: the connection closes after the answer.
    res.setHeader("Connection", "close");
    answer(res, "too_large", 413, "Payload Too Large");
  };

  return (req: Request, res: Response) => {
    handle(req, res).catch((error: Error) => {
      console.error(`Beacon: ${error.message}`);
      if (!res.headersSent) res.writeHead(204, { "Cache-Control": "no-store" }).end();
    });
  };
}

function plain(res: Response, status: number, text: string) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end(`${text}\n`);
}
