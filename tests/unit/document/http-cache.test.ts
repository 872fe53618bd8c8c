import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { httpCachePolicy } from "~/document/http-cache.server";
import { parseSettings } from "~/site/config.server";

describe("the HTTP cache policy, from the HTML_* settings", () => {
  it("keeps pages as the operator's settings say, files an hour, a 404 a minute and a 503 never", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 31_536_000 }), { minLength: 4, maxLength: 4 }), ([a, b, c, d]) => {
        const parsed = parseSettings({
          HTML_MAX_AGE: String(a),
          HTML_S_MAXAGE: String(b),
          HTML_STALE_WHILE_REVALIDATE: String(c),
          HTML_STALE_IF_ERROR: String(d),
        });
        if (!parsed.ok) throw new Error(parsed.problems.join("; "));
        const policy = httpCachePolicy(parsed.settings.httpCache);
        expect(policy.control("page")).toBe(
          `public, max-age=${a}, s-maxage=${b}, stale-while-revalidate=${c}, stale-if-error=${d}`,
        );
        expect(policy.control("file")).toBe(
          `public, max-age=3600, s-maxage=3600, stale-while-revalidate=${c}, stale-if-error=${d}`,
        );
        expect(policy.headers("missing")).toEqual({ "Cache-Control": "public, max-age=60, s-maxage=60" });
        expect(policy.headers("unavailable")).toEqual({ "Cache-Control": "no-store" });
      }),
    );
  });
});
