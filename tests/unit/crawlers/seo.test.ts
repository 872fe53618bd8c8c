import { describe, expect, it } from "vitest";
import { createTranslator } from "~/i18n/messages";
import { canonicalHref, noindexMeta, pageMeta } from "~/crawlers/seo";

describe("canonicalHref", () => {
  it("finds the canonical link among a page's tags, and nothing on a page without one", () => {
    const language = { lang: "en", ogLocale: "en_US", translator: createTranslator("en", {}) };
    const site = { product: "Zen", siteName: "Zen", origin: "https://zen.example", language };
    const tags = pageMeta({ site, path: "/blog/caf%C3%A9", title: "Café", description: "A visit." });
    expect(canonicalHref(tags)).toBe("https://zen.example/blog/caf%C3%A9");
    expect(canonicalHref(noindexMeta("Not found"))).toBeUndefined();
  });
});
