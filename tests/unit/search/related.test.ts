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
    expect(rankRelated(own, candidates, 3).map((found) => found.slug)).toEqual([
      "two-words",
      "one-word-new",
      "one-word-old",
    ]);
    expect(rankRelated(own, candidates, 1).map((found) => found.slug)).toEqual(["two-words"]);
  });

  it("put the more often read to the end first among those sharing as many words, never above one sharing more", () => {
    const own = keywordWords(["zen retreat"]);
    const candidates = [
      { entry: entry("two-new", ["zen retreat"]), dateIso: "2024-01-01" },
      { entry: entry("two-old", ["zen retreat"]), dateIso: "2023-01-01" },
      { entry: entry("one-always-read", ["zen"]), dateIso: "2025-01-01" },
    ];
    const rate = (slug: string) => ({ "two-old": 0.7, "two-new": 0.3, "one-always-read": 1 })[slug] ?? 0;
    expect(rankRelated(own, candidates, 3).map((found) => found.slug)).toEqual([
      "two-new",
      "two-old",
      "one-always-read",
    ]);
    expect(rankRelated(own, candidates, 3, rate).map((found) => found.slug)).toEqual([
      "two-old",
      "two-new",
      "one-always-read",
    ]);
  });

  it("are filled with the newest articles not chosen yet, up to the count, the more often read to the end first", () => {
    const found = [entry("a", ["zen"])];
    const newest = [entry("a", []), entry("b", []), entry("c", []), entry("d", [])];
    expect(fillWithNewest(found, newest, 3).map((item) => item.slug)).toEqual(["a", "b", "c"]);
    expect(
      fillWithNewest([entry("a", ["zen"])], newest, 3, (slug) => (slug === "d" ? 0.8 : 0.4)).map((item) => item.slug),
    ).toEqual(["a", "d", "b"]);
  });
});
