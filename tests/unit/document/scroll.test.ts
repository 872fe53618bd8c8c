import { describe, expect, it } from "vitest";
import { isScrolledPast } from "~/document/scroll";

describe("the header past the top", () => {
  it("turns the header solid only past 20 px", () => {
    expect(isScrolledPast(0)).toBe(false);
    expect(isScrolledPast(20)).toBe(false);
    expect(isScrolledPast(21)).toBe(true);
  });
});
