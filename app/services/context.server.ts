import type { AppLoadContext } from "@remix-run/node";
import { getSettings, siteOf } from "~/site/config.server";
import { createServiceRegistry, type ServiceRegistry, type SiteServices } from "./site-services.server";

let underOtherServer: ServiceRegistry | undefined;

/**
 * The services of the site a request is for, as server/main.ts hands them in the load context. Under another
 * server (`npm run dev`, whose remix-serve passes no context) the environment's one site, wired here once.
 */
export function servicesOf(context: AppLoadContext | undefined): SiteServices {
  if (context?.services) return context.services;
  underOtherServer ??= createServiceRegistry(getSettings());
  return underOtherServer.of(siteOf(context));
}
