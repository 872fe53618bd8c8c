import type { IncomingHttpHeaders } from "node:http";
import { isbot } from "isbot";

/**
 * Pure: why a beacon is not counted, from its headers alone (before its body is read), or undefined for
 * one to count. `hostName` is the request's host without port, which the host guard has already checked.
 *
 * - cross_site: a browser sends beacons from a page with `Sec-Fetch-Site: same-origin`, or, where it
 *   predates that header, with an `Origin` (a POST) or a `Referer` (the no-script image) of the page's
 *   host. A request from another site's page, or from no page at all, has none of them.
 * - opted_out: the reader's browser asks not to be tracked (`Sec-GPC: 1`, `DNT: 1`). The page sends
 *   nothing then; this is for a beacon already on its way.
 * - prefetch: a speculative request (`Sec-Purpose`, `Purpose`), never a reader's.
 * - bot: a crawler's user agent (isbot), a headless browser, or none at all.
 */
export function notCounted(
  headers: IncomingHttpHeaders,
  hostName: string,
): "cross_site" | "opted_out" | "prefetch" | "bot" | undefined {
  if (!sameOrigin(headers, hostName)) return "cross_site";
  if (headers["sec-gpc"] === "1" || headers.dnt === "1") return "opted_out";
  if (
    /prefetch|prerender/i.test(`${headers["sec-purpose"] ?? ""} ${headers.purpose ?? ""} ${headers["x-purpose"] ?? ""}`)
  )
    return "prefetch";
  const agent = headers["user-agent"];
  if (!agent || isbot(agent) || /headless/i.test(agent) || /headless/i.test(String(headers["sec-ch-ua"] ?? "")))
    return "bot";
  return undefined;
}

function sameOrigin(headers: IncomingHttpHeaders, hostName: string): boolean {
  const site = headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  const origin = headers.origin ?? headers.referer;
  if (!origin || !URL.canParse(origin)) return false;
  return new URL(origin).hostname === hostName;
}

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;

/**
 * The reader's address, to rate-limit by (never kept: rate-limit.server.ts hashes it). The socket's peer,
 * or, when that is a proxy on this machine (nginx, docs/nginx.conf), the address the proxy saw: the
 * last entry of X-Forwarded-For, the one it added. A client reaching the origin directly cannot choose it.
 */
export function readerAddress(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
  const address = peer ?? "";
  if (!LOOPBACK.test(address) || forwardedFor === undefined) return address;
  const last = String(forwardedFor).split(",").at(-1)?.trim();
  return last || address;
}
