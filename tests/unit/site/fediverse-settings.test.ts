import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSettings } from "~/site/config.server";
import { defaultHandle, HANDLE_PATTERN } from "~/site/fediverse-handle";

const siteUrl = "https://zen.example.org";

describe("the fediverse settings", () => {
  it("are off by default: no actor, whatever else is set", () => {
    const result = parseSettings({ SITE_URL: siteUrl, FEDIVERSE_HANDLE: "zen" });
    expect(result.ok && result.settings.site.fediverse).toBeUndefined();
  });

  it("on without SITE_URL refuse to start, in one line naming both settings", () => {
    const result = parseSettings({ FEDIVERSE: "on" });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual([expect.stringMatching(/^SITE_URL is required when FEDIVERSE is on/)]);
  });

  it("on with SITE_URL take the handle given, without its @ and in lowercase, or the product's first word", () => {
    const given = parseSettings({ FEDIVERSE: "on", SITE_URL: siteUrl, FEDIVERSE_HANDLE: " @Zen_Center " });
    expect(given.ok && given.settings.site.fediverse).toEqual({ handle: "zen_center" });
    const fallback = parseSettings({ FEDIVERSE: "on", SITE_URL: siteUrl, SITE_PRODUCT: "Theravāda Forest" });
    expect(fallback.ok && fallback.settings.site.fediverse).toEqual({ handle: "theravada" });
    const thai = parseSettings({ FEDIVERSE: "on", SITE_URL: siteUrl, SITE_PRODUCT: "เถรวาท" });
    expect(thai.ok && thai.settings.site.fediverse).toEqual({ handle: "blog" });
  });

  it("refuse FEDIVERSE other than on or off", () => {
    const result = parseSettings({ FEDIVERSE: "yes", SITE_URL: siteUrl });
    expect(result.ok ? [] : result.problems).toEqual([expect.stringMatching(/^FEDIVERSE must be "on" or "off"/)]);
  });

  it("accept any handle of the allowed shape and refuse any other, with a reason", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (handle) => {
        const result = parseSettings({ FEDIVERSE: "on", SITE_URL: siteUrl, FEDIVERSE_HANDLE: handle });
        const read = handle.trim().replace(/^@/, "").toLowerCase();
        if (read === "" || HANDLE_PATTERN.test(read)) {
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.settings.site.fediverse?.handle).toBe(read || "zen");
        } else {
          expect(result.ok ? [] : result.problems).toEqual([expect.stringMatching(/^FEDIVERSE_HANDLE must be/)]);
        }
      }),
    );
  });

  it("make a handle of the allowed shape from any product name", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (product) => {
        expect(defaultHandle(product)).toMatch(HANDLE_PATTERN);
      }),
    );
  });
});
