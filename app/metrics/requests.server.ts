import type { IncomingMessage, ServerResponse } from "node:http";
import type { Histogram } from "prom-client";
import { routeIdMatcher, type BuildRoute } from "./route-id";

type Request = IncomingMessage & { path: string };
type Response = ServerResponse & { locals: { site?: { label: string }; metricsRoute?: string } };
type Middleware = (req: Request, res: Response, next: () => void) => void;

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/**
 * The Express middleware of the request histogram. `timeRequests` goes first and observes each answer
 * when it is sent; the route is named by whichever mark the request passed last: `guard` (the host,
 * method and path guards answered it), `health`, `static` (assets and public files), `beacon` (readers'
 * Web Vitals, app/vitals) and at last the Remix route id, in front of the page cache. Labels are the
 * site's label or "none" (before a site was found: 400, 421) and fixed names: a request cannot make a
 * label of its own.
 */
export function requestMetrics(
  duration: Histogram<"site" | "route" | "status_class">,
  routes: Record<string, BuildRoute | undefined>,
) {
  const routeOf = routeIdMatcher(routes);
  const timeRequests: Middleware = (req, res, next) => {
    const start = performance.now();
    res.locals.metricsRoute = req.path === "/healthz" ? "health" : "guard";
    res.once("finish", () => {
      const labels = {
        site: res.locals.site?.label ?? "none",
        route: res.locals.metricsRoute ?? "guard",
        status_class: STATUS_CLASSES[Math.floor(res.statusCode / 100) - 1] ?? "other",
      };
      duration.observe(labels, (performance.now() - start) / 1000);
    });
    next();
  };
  const mark =
    (route: (req: Request) => string): Middleware =>
    (req, res, next) => {
      res.locals.metricsRoute = route(req);
      next();
    };
  return {
    timeRequests,
    staticFiles: mark(() => "static"),
    beacon: mark(() => "beacon"),
    remixRoute: mark((req) => routeOf(req.path)),
  };
}
