import { describe, expect, it } from "vitest";
import { pageAddress } from "~/document/page-address";
import { keywordKey, keywordPath } from "~/search/keyword-key";
import { plainText } from "~/search/plain-text";
import { knownShapes } from "../../support/hostile-markdown.mjs";
import { parseSearchParams, searchHref } from "~/search/search-address";

const params = (query: string) => parseSearchParams(new URLSearchParams(query));

describe("search addresses", () => {
  it("read the first q, cut to 200 whole characters, and a page from 2 up", () => {
    expect(params("q=zen+retreat")).toEqual({ query: "zen retreat", page: 1 });
    expect(params("q=zen&page=3")).toEqual({ query: "zen", page: 3 });
    expect(params(`q=${"禅".repeat(300)}`).query).toBe("禅".repeat(200));
    expect(params(`q=${"😀".repeat(300)}`).query).toBe("😀".repeat(200));
    expect(params("q=a&q=b").query).toBe("a");
    expect(params("")).toEqual({ query: "", page: 1 });
  });

  it("send odd pages to the address without them", () => {
    for (const page of ["1", "0", "-2", "x", "2.5", "101", "99999"])
      expect(params(`q=zen&page=${page}`).redirectTo).toBe("/search?q=zen");
    expect(params("q=zen&page=2&page=3").redirectTo).toBe("/search?q=zen");
    expect(searchHref("thiền định", 2)).toBe("/search?q=thi%E1%BB%81n+%C4%91%E1%BB%8Bnh&page=2");
  });

  it("keep q and page on /search and page on keyword pages, and drop the rest", () => {
    expect(pageAddress("/search?q=zen&utm_source=x&page=2&fbclid=y")).toBe("/search?q=zen&page=2");
    expect(pageAddress("/search.data?q=zen&_routes=routes%2Fsearch&gclid=1")).toBe(
      "/search.data?q=zen&_routes=routes%2Fsearch",
    );
    expect(pageAddress("/keywords/zen?page=2&q=x")).toBe("/keywords/zen?page=2");
  });
});

describe("keyword addresses", () => {
  it("are the keyword in lower case, words joined by hyphens, in any script", () => {
    expect(keywordKey("Zen Retreat")).toBe("zen-retreat");
    expect(keywordKey("  beginner's   mind ")).toBe("beginner-s-mind");
    expect(keywordKey("Thiền định")).toBe("thiền-định");
    expect(keywordKey("座禅")).toBe("座禅");
    expect(keywordKey("!!!")).toBe("");
    expect(keywordPath("Thiền định")).toBe(`/keywords/${encodeURIComponent("thiền-định")}`);
  });
});

describe("plainText", () => {
  it("keeps the words a reader sees and drops addresses and markup", () => {
    const text = plainText(
      "## Heading\n\n> A **quote** with [a link](https://example.org/x) and ![a picture](/p.jpg) <b>bold</b>\n\n- item",
    );
    expect(text).toContain("Heading");
    expect(text).toContain("A quote with a link and a picture");
    expect(text).toContain("item");
    expect(text).not.toMatch(/https|\/p\.jpg|<b>|##|\*\*/);
  });
});

describe("plainText of hostile bodies", () => {
  // Each of these held the thread for minutes with the regular expressions plainText used before (they went
  // back over the rest of the text at every failed start); one pass each takes milliseconds.
  it.each(knownShapes)("reads %s in one pass", (_name, markdown) => {
    expect(typeof plainText(markdown)).toBe("string");
  });

  it("keeps the words of images, links and quotes", () => {
    expect(plainText("![a lotus](/l.png) and [a link](https://x.example/(y) <b>z</b>\n>> quoted")).toBe(
      "a lotus and a link z \nquoted",
    );
  });
});
