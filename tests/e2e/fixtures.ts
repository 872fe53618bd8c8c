import { test as base, expect, type Page } from "@playwright/test";
import { urls } from "../support/servers.mjs";

export { expect, urls };

type Options = {
  /**
   * A domain whose subdomains count as this machine besides 127.0.0.1 and localhost, for a spec whose
   * browser maps them to loopback (tests/e2e/sites.spec.ts: "sites.test"). None unless a spec sets it.
   */
  localDomain: string | undefined;
};

type Fixtures = {
  /** Every request the page tried to send off the machine (all are blocked). */
  thirdPartyRequests: string[];
  /** Uncaught errors in the page; a test fails if any happened. */
  pageErrors: Error[];
};

const loopback = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

/** Whether a request stays on this machine: loopback, or plain http to a subdomain of the spec's local domain. */
function isLocal(url: URL, localDomain: string | undefined): boolean {
  if (loopback.test(url.href)) return true;
  return localDomain !== undefined && url.protocol === "http:" && url.hostname.endsWith(`.${localDomain}`);
}

export const test = base.extend<Fixtures & Options>({
  localDomain: [undefined, { option: true }],
  thirdPartyRequests: [
    async ({ context, localDomain }, use) => {
      const seen: string[] = [];
      await context.route(
        (url) => !isLocal(url, localDomain) && !url.href.startsWith("data:") && !url.href.startsWith("blob:"),
        (route) => {
          seen.push(route.request().url());
          return route.abort("blockedbyclient");
        },
      );
      await use(seen);
    },
    { auto: true },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = [];
      page.on("pageerror", (error) => errors.push(error));
      await use(errors);
      expect(
        errors.map((error) => error.message),
        "uncaught errors in the page",
      ).toEqual([]);
    },
    { auto: true },
  ],
});

/** True when the current project runs with JavaScript. */
export function hasJavaScript(page: Page) {
  return page.context().browser() !== null && test.info().project.name.startsWith("js-");
}
