import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureReply, REPLY_SHAPE_LIMITS } from "~/blog/reply-shape";

// The pass over a reply's text before JSON.parse (docs/decisions/041): it must count what JSON.parse would
// build, whatever the strings hold, so that a flat reply always passes and a costly one never does.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Objects and arrays, and the values a comma separates, as the pass counts them; and the nesting. */
function measure(value: Json): { values: number; depth: number } {
  if (value === null || typeof value !== "object") return { values: 0, depth: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const measured = children.map(measure);
  return {
    values: 1 + Math.max(0, children.length - 1) + measured.reduce((sum, child) => sum + child.values, 0),
    depth: 1 + Math.max(0, ...measured.map((child) => child.depth)),
  };
}

/** Strings full of what the pass must skip: quotes, backslashes, brackets and commas. */
const trickyString = fc.string({ unit: fc.constantFrom('"', "\\", "{", "}", "[", "]", ",", "a", "\u2028", "瞑") });
const json = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, 0, -1.5e300),
    trickyString,
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(trickyString, tie("value"), { maxKeys: 6 }),
  ),
})).value;

describe("the shape of a reply", () => {
  it("is refused exactly when its nesting or its values are over the limits, whatever its strings hold", () => {
    const limits = { maxDepth: 4, maxValues: 25 };
    fc.assert(
      fc.property(json, fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 2 : undefined);
        const { values, depth } = measure(value);
        const shape = measureReply(text, limits);
        expect(shape.problem === undefined, `${text}: ${shape.problem}`).toBe(
          depth <= limits.maxDepth && values <= limits.maxValues,
        );
        if (!shape.problem) expect(shape.values).toBe(values);
      }),
      { numRuns: 500 },
    );
  });

  it("passes an article and a list page as the backend sends them", () => {
    const article = {
      metaTitle: 'A "quoted" {title}',
      metaDescription: "d",
      date: "2024-01-05",
      blog: "[a](/b), {c}\\",
      shortTailKeywords: "a, b",
      longTailKeywords: null,
    };
    // An article and a page of ten entries are read on the thread that answers requests, a list of 5,000 in the worker.
    expect(measureReply(JSON.stringify(article)).problem).toBeUndefined();
    expect(measureReply(JSON.stringify(article)).values).toBeLessThan(REPLY_SHAPE_LIMITS.inWorkerFrom);
    const entry = { id: 1, slug: "s", metaTitle: "t", metaDescription: "d", pinterestImageLink: null };
    expect(measureReply(JSON.stringify({ blogs: Array(10).fill(entry), total: 10 })).values).toBeLessThan(
      REPLY_SHAPE_LIMITS.inWorkerFrom,
    );
    const thousands = measureReply(JSON.stringify({ blogs: Array(5000).fill(entry), total: 5000 }));
    expect(thousands.problem).toBeUndefined();
    expect(thousands.values).toBeGreaterThanOrEqual(REPLY_SHAPE_LIMITS.inWorkerFrom);
  });

  it("refuses the shapes that would hold even the worker long, and sends the rest of the costly ones there", () => {
    expect(measureReply(`{"blog":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`).problem).toMatch(/nested/);
    expect(measureReply(`[${Array(600_000).fill("{}").join(",")}]`).problem).toMatch(/values/);
    // 150,000 keys: parsed, in the worker.
    const keys = measureReply(`{${Array.from({ length: 150_000 }, (_, index) => `"k${index}":1`).join(",")}}`);
    expect(keys.problem).toBeUndefined();
    expect(keys.values).toBeGreaterThanOrEqual(REPLY_SHAPE_LIMITS.inWorkerFrom);
  });
});
