import { describe, expect, it } from "vitest";
import { pageCount, pageHref, pageWindow, parsePageParam } from "~/blog/pagination";

describe("page parameter", () => {
  const parse = (query: string) => parsePageParam(new URLSearchParams(query));
  it("reads a plain page number", () => {
    expect(parse("")).toEqual({ page: 1, canonical: true });
    expect(parse("page=3")).toEqual({ page: 3, canonical: true });
    expect(parse("page=3&utm_source=x")).toEqual({ page: 3, canonical: true });
  });
  it("sends page 1 and every malformed value to /blog", () => {
    for (const query of [
      "page=1",
      "page=0",
      "page=-2",
      "page=2.5",
      "page=abc",
      "page=",
      "page=2&page=3",
      "page=01",
      "page=1e3",
      "page=9999999999",
      "page=%20",
    ]) {
      expect(parse(query)).toEqual({ page: 1, canonical: false, redirectTo: "/blog" });
    }
  });
  it("links page 1 as /blog", () => {
    expect(pageHref(1)).toBe("/blog");
    expect(pageHref(4)).toBe("/blog?page=4");
  });
});

describe("pagination window", () => {
  it("counts pages of ten", () => {
    expect(pageCount(0)).toBe(0);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(23)).toBe(3);
  });
  it("shows at most five numbers that move with the current page", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 12)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(8, 12)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(12, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});
