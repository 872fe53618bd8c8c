import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileTarget, pageUrl, redirectTargets, sendable } from "../support/hostile-addresses.mjs";
import { rawRequest } from "../support/raw-request.mjs";
import { serverRuns } from "../support/server-runs.mjs";
import { startSite } from "../support/site-process.mjs";

// Every redirect the site answers stays on the site: generated addresses that try to point it elsewhere
// (the class of GHSA-jjmj-jmhj-qwj2 and GHSA-wrjc-x8rr-h8h6) never give a Location on another host.

let site: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  site = await startSite({ ALLOWED_HOSTS: "news.example.org" });
}, 30_000);
afterAll(async () => site?.stop());

/** Sends `target` as the browser at https://news.example.org would, and returns where each redirect leads. */
async function leadsTo(target: string) {
  const reply = await rawRequest(site.url, target, { host: "news.example.org" });
  return { reply, targets: redirectTargets(reply, pageUrl("https://news.example.org", target)) };
}

describe("redirects stay on the site", () => {
  it("the redirects there are still made (so the property below has something to check)", async () => {
    for (const target of [
      "//evil.example",
      "/%5Cevil.example",
      "/blog?page=1",
      "/blog?page=//evil.example",
      "/blog.data?page=x",
      "/favicon.ico",
    ]) {
      const { reply, targets } = await leadsTo(target);
      expect(targets.length, target).toBe(1);
      expect(reply.status, target).toBeLessThan(400);
    }
  });

  it("tabs and line breaks between leading slashes, which the URL parser drops, lead home too (they gave 500)", async () => {
    for (const target of ["/%09/", "/%0A/evil.example", "/%0d%09/%5c/evil.example", "/%09%2F%09"]) {
      const { reply, targets } = await leadsTo(target);
      expect(reply.status, target).toBe(301);
      expect(
        targets.map(({ origin }) => origin),
        target,
      ).toEqual(["https://news.example.org"]);
    }
  });

  it("no generated address gets a Location or X-Remix-Redirect on another host, nor a 5xx", async () => {
    const runs = serverRuns(1500);
    let redirects = 0;
    await fc.assert(
      fc.asyncProperty(hostileTarget.filter(sendable), async (target) => {
        const { reply, targets } = await leadsTo(target);
        expect(reply.status, target).toBeLessThan(500);
        for (const { header, value, origin } of targets) {
          redirects += 1;
          expect(origin, `${target} -> ${header}: ${value}`).toBe("https://news.example.org");
        }
      }),
      { numRuns: runs },
    );
    // Most generated addresses are redirected: the property was tested, not passed by 404s alone.
    expect(redirects).toBeGreaterThan(runs / 10);
  }, 60_000);
});
