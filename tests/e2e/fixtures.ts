import { test as base, expect, type Page } from "@playwright/test";
import { urls } from "../support/servers.mjs";

export { expect, urls };

type Fixtures = {
  /** Every request the page tried to send off the machine (all are blocked). */
  thirdPartyRequests: string[];
  /** Uncaught errors in the page; a test fails if any happened. */
  pageErrors: Error[];
};

const loopback = /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//;

export const test = base.extend<Fixtures>({
  thirdPartyRequests: [
    async ({ context }, use) => {
      const seen: string[] = [];
      await context.route(
        (url) => !loopback.test(url.href) && !url.href.startsWith("data:") && !url.href.startsWith("blob:"),
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
      expect(errors.map((error) => error.message), "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

/** True when the current project runs with JavaScript. */
export function hasJavaScript(page: Page) {
  return page.context().browser() !== null && test.info().project.name.startsWith("js-");
}
