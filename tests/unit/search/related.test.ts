import { describe, expect, it } from "vitest";
import { keywordWords } from "~/blog/read-next";
import { fillWithNewest, rankRelated } from "~/search/related";

const entry = (slug: string, keywords: string[]) => ({ slug, title: slug, description: "", keywords });

describe("related articles, the same rule for every store", () => {
  it("put the most shared keyword words first, the newest among equals, and leave out those sharing none", () => {
    const own = keywordWords(["zen retreat", "sesshin"]);
    const candidates = [
      { entry: entry("one-word-old", ["zen"]), dateIso: "2023-01-01" },
      { entry: entry("two-words", ["zen", "retreat schedule"]), dateIso: "2022-01-01" },
      { entry: entry("one-word-new", ["retreat"]), dateIso: "2024-01-01" },
      { entry: entry("nothing-shared", ["tea"]), dateIso: "2025-01-01" },
    ];
    expect(rankRelated(own, candidates, 3).map((found) => found.slug)).toEqual(["two-words", "one-word-new", "one-word-old"]);
    expect(rankRelated(own, candidates, 1).map((found) => found.slug)).toEqual(["two-words"]);
  });

  it("are filled with the newest articles not chosen yet, up to the count", () => {
    const found = [entry("a", ["zen"])];
    const newest = [entry("a", []), entry("b", []), entry("c", []), entry("d", [])];
    expect(fillWithNewest(found, newest, 3).map((item) => item.slug)).toEqual(["a", "b", "c"]);
  });
});
