import { metrics, type BackendFunction } from "~/metrics/record.server";
import { BlogUnavailableError } from "./errors.server";
import type { BlogSource } from "./source.server";

/** The hosted backend with each call counted by outcome and timed, for the site named. */
export function measuredSource(site: string, source: BlogSource): BlogSource {
  async function measured<T>(fn: BackendFunction, call: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      const value = await call();
      metrics.backendCall(site, fn, "ok", (performance.now() - start) / 1000);
      return value;
    } catch (error) {
      metrics.backendCall(
        site,
        fn,
        error instanceof BlogUnavailableError ? error.kind : "invalid_reply",
        (performance.now() - start) / 1000,
      );
      throw error;
    }
  }
  return {
    listPage: (domain, page) => measured("list", () => source.listPage(domain, page)),
    article: (slug) => measured("details", () => source.article(slug)),
  };
}
