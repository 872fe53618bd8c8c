import { describe, expect, it } from "vitest";
import { fillWithNewest, keywordWords, pickReadNext, rankRelated, READ_NEXT_COUNT } from "~/search/read-next";

type Entry = { slug: string; keywords?: string[] };
const entry = (slug: string, keywords?: string[]): Entry => ({ slug, keywords });
const slugs = (entries: Entry[]) => entries.map((item) => item.slug);

describe("read next", () => {
  it("suggests three articles", () => {
    expect(READ_NEXT_COUNT).toBe(3);
  });

  it("without keywords: the newest other articles, never the article itself", () => {
    const newest = ["a", "b", "c", "d", "e"].map((slug) => entry(slug));
    expect(slugs(pickReadNext({ slug: "b", keywords: [] }, newest))).toEqual(["a", "c", "d"]);
    expect(slugs(pickReadNext({ slug: "z", keywords: ["zen"] }, newest))).toEqual(["a", "b", "c"]);
  });

  it("puts the articles that share the most keyword words first, the newest first among equals", () => {
    const newest = [
      entry("newest", ["precepts", "ethics"]),
      entry("one-shared", ["zen", "ethics"]),
      entry("most-shared", ["zen retreat", "first meditation retreat tips"]),
      entry("self", ["zen retreat", "sesshin"]),
      entry("one-shared-older", ["walking meditation"]),
      entry("oldest", []),
    ];
    const current = { slug: "self", keywords: ["sesshin", "Zen Retreat", "what happens at a meditation retreat"] };
    expect(slugs(pickReadNext(current, newest))).toEqual(["most-shared", "one-shared", "one-shared-older"]);
    expect(slugs(pickReadNext(current, newest, 10))).toEqual([
      "most-shared",
      "one-shared",
      "one-shared-older",
      "newest",
      "oldest",
    ]);
  });

  it("among articles sharing as many words, puts the more often read to the end first; sharing more words still comes first", () => {
    const newest = [
      entry("new-two", ["zen retreat"]),
      entry("old-two", ["zen retreat"]),
      entry("often-read-one", ["zen"]),
      entry("often-read-none", ["tea"]),
    ];
    const current = { slug: "self", keywords: ["zen retreat"] };
    const rates: Record<string, number> = { "old-two": 0.6, "new-two": 0.2, "often-read-one": 1, "often-read-none": 1 };
    expect(slugs(pickReadNext(current, newest))).toEqual(["new-two", "old-two", "often-read-one"]);
    expect(slugs(pickReadNext(current, newest, 4, (slug) => rates[slug] ?? 0))).toEqual([
      "old-two",
      "new-two",
      "often-read-one",
      "often-read-none",
    ]);
    // Without keywords (the hosted backend's list): the more often read to the end, the newest among equals.
    const bare = ["a", "b", "c", "d"].map((slug) => entry(slug));
    expect(slugs(pickReadNext({ slug: "x", keywords: [] }, bare, 3, (slug) => (slug === "c" ? 0.9 : 0.5)))).toEqual([
      "c",
      "a",
      "b",
    ]);
  });

  it("takes fewer when the list holds fewer others, and none from an empty list", () => {
    expect(slugs(pickReadNext({ slug: "a", keywords: [] }, [entry("a"), entry("b")]))).toEqual(["b"]);
    expect(pickReadNext({ slug: "a", keywords: ["zen"] }, [entry("a", ["zen"])])).toEqual([]);
    expect(pickReadNext({ slug: "a", keywords: [] }, [])).toEqual([]);
  });

  it("suggests an article once when the list repeats it", () => {
    const newest = [entry("b", ["zen"]), entry("b", ["zen"]), entry("c"), entry("d")];
    expect(slugs(pickReadNext({ slug: "a", keywords: ["zen"] }, newest))).toEqual(["b", "c", "d"]);
  });

  it("compares keyword words: case, apostrophes and common words aside", () => {
    expect([...keywordWords(["Beginner's Mind", "what is beginners mind in zen", "how to practise"])]).toEqual([
      "beginners",
      "mind",
      "zen",
      "practise",
    ]);
    expect([...keywordWords(["坐禅, 禅宗", "thiền định"])]).toEqual(["坐禅", "禅宗", "thiền", "định"]);
  });
});

const catalogued = (slug: string, keywords: string[]) => ({ slug, title: slug, description: "", keywords });

describe("related articles, the same rule for every store", () => {
  it("put the most shared keyword words first, the newest among equals, and leave out those sharing none", () => {
    const own = keywordWords(["zen retreat", "sesshin"]);
    const candidates = [
      { entry: catalogued("one-word-old", ["zen"]), dateIso: "2023-01-01" },
      { entry: catalogued("two-words", ["zen", "retreat schedule"]), dateIso: "2022-01-01" },
      { entry: catalogued("one-word-new", ["retreat"]), dateIso: "2024-01-01" },
      { entry: catalogued("nothing-shared", ["tea"]), dateIso: "2025-01-01" },
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
      { entry: catalogued("two-new", ["zen retreat"]), dateIso: "2024-01-01" },
      { entry: catalogued("two-old", ["zen retreat"]), dateIso: "2023-01-01" },
      { entry: catalogued("one-always-read", ["zen"]), dateIso: "2025-01-01" },
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
    const found = [catalogued("a", ["zen"])];
    const newest = [catalogued("a", []), catalogued("b", []), catalogued("c", []), catalogued("d", [])];
    expect(fillWithNewest(found, newest, 3).map((item) => item.slug)).toEqual(["a", "b", "c"]);
    expect(
      fillWithNewest([catalogued("a", ["zen"])], newest, 3, (slug) => (slug === "d" ? 0.8 : 0.4)).map(
        (item) => item.slug,
      ),
    ).toEqual(["a", "d", "b"]);
  });
});
