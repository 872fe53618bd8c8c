import { describe, expect, it } from "vitest";
import { inlineCall } from "~/document/inline-script";

describe("inline script source", () => {
  it("calls the function with its arguments when the page runs it", () => {
    const seen: unknown[] = [];
    const record = (first: string, second: number) =>
      (globalThis as unknown as { seen: unknown[] }).seen.push(first, second);
    (globalThis as unknown as { seen: unknown[] }).seen = seen;
    new Function(inlineCall(record, "positions", 3))();
    expect(seen).toEqual(["positions", 3]);
  });

  it("cannot close the script element from an argument", () => {
    const source = inlineCall((text: string) => text, "</script><script>alert(1)</script>");
    expect(source).not.toContain("</script>");
    expect(source).toContain("\\u003c/script\\u003e");
  });
});
