import { describe, expect, it } from "vitest";
import { sectionHref } from "~/site/site-sections";

describe("section links", () => {
  it("links sections in place on the home page and via home elsewhere", () => {
    expect(sectionHref("about", true)).toBe("#about");
    expect(sectionHref("about", false)).toBe("/#about");
    expect(sectionHref("home", false)).toBe("/");
  });
});
