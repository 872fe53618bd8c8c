import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textKey } from "~/search/text-key";

const date = fc
  .date({ min: new Date("1900-01-01"), max: new Date("4800-12-31"), noInvalidDate: true })
  .map((value) => value.toISOString());

describe("an article's key in the full-text index", () => {
  it("orders articles by their day, then by id", () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 31 }), date, fc.nat({ max: 2 ** 31 }), date, (a, dayA, b, dayB) => {
        fc.pre(a !== b);
        const [keyA, keyB] = [textKey(a, dayA), textKey(b, dayB)];
        expect(keyA).not.toBe(keyB);
        expect(Number.isSafeInteger(keyA)).toBe(true);
        const [isoA, isoB] = [dayA.slice(0, 10), dayB.slice(0, 10)];
        if (isoA > "1970-01-01" && isoB > "1970-01-01" && isoA !== isoB) expect(keyA < keyB).toBe(isoA < isoB);
        if (isoA === isoB) expect(keyA < keyB).toBe(a < b);
      }),
    );
  });

  it("puts articles without a usable date first, as the oldest, keyed by their id", () => {
    expect(textKey(42, undefined)).toBe(42);
    expect(textKey(42, "not a date")).toBe(42);
    expect(textKey(42, "1960-05-01T00:00:00.000Z")).toBe(42);
    expect(textKey(42, "2026-11-25T00:00:00.000Z")).toBeGreaterThan(textKey(2 ** 31, undefined));
  });
});
