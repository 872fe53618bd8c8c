import "@remix-run/node";
import type { SiteServices } from "~/services/site-services.server";
import type { SiteSettings } from "~/site/config.server";

declare module "@remix-run/node" {
  // Loader data types follow Single Fetch (turbo-stream) rules instead of JSON serialisation.
  interface Future {
    v3_singleFetch: true;
  }
  // What server/main.ts hands every loader: the site the request's host belongs to, and its services.
  interface AppLoadContext {
    site?: SiteSettings;
    services?: SiteServices;
  }
}
