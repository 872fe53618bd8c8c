import { describe, expect, it } from "vitest";
import { splitKeywords } from "~/blog/keywords";

describe("keywords", () => {
  it("splits on commas, trims and drops empties and repeats", () => {
    expect(splitKeywords(" zen, , koan ,Zen,meditation practice ,")).toEqual(["zen", "koan", "meditation practice"]);
  });
  it("gives nothing for missing values", () => {
    expect(splitKeywords(undefined)).toEqual([]);
    expect(splitKeywords(null)).toEqual([]);
    expect(splitKeywords(" , ")).toEqual([]);
  });
});
