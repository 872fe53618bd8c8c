// The same generated addresses as tests/server/open-redirects.test.ts, through nginx (docs/nginx.conf):
// whatever nginx does to a path before the origins see it, and whatever it keeps in its cache, no
// redirect leads off the site.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { hostileTarget, pageUrl, redirectTargets, sendable } from "../support/hostile-addresses.mjs";
import { nginxMissing } from "../support/nginx.mjs";
import { rawRequest } from "../support/raw-request.mjs";
import { useStack } from "./support/stack";

describe.skipIf(nginxMissing)("redirects through nginx stay on the site", () => {
  const running = useStack({ latencyMs: 0 });

  test("no generated address gets a Location or X-Remix-Redirect on another host, nor a 5xx", async () => {
    const site = "http://chan.example.test";
    let redirects = 0;
    await fc.assert(
      fc.asyncProperty(hostileTarget.filter(sendable), async (target) => {
        const reply = await rawRequest(running().nginx.url, target, { host: "chan.example.test" });
        expect(reply.status, target).toBeLessThan(500);
        for (const { header, value, origin } of redirectTargets(reply, pageUrl(site, target))) {
          redirects += 1;
          expect(origin, `${target} -> ${header}: ${value}`).toBe(site);
        }
      }),
      { numRuns: 800 },
    );
    expect(redirects).toBeGreaterThan(80);
  });
});
