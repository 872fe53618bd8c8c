import fc from "fast-check";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { splicedGzip } from "../../server/spliced-gzip.mjs";

// server/spliced-gzip.mjs: a page compressed once, answered with a different join (the CSP nonce) each
// time, must decompress to exactly the page with that join, and stay about as small as whole-page gzip.

const join = (parts: string[], between: string) => parts.join(between);
const bytes = (text: string) => Buffer.from(text, "utf8");

describe("spliced gzip", () => {
  it("decompresses to the parts joined with each response's own join", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 300 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.base64String({ minLength: 24, maxLength: 24 }), { minLength: 1, maxLength: 3 }),
        (parts, joins) => {
          const gzip = splicedGzip(parts.map(bytes), 24);
          for (const between of joins) expect(gunzipSync(gzip.withJoin(bytes(between))).toString("utf8")).toBe(join(parts, between));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("never lets a back-reference reach into a join, even when parts repeat it or hold NUL bytes", () => {
    const previous = "nonce-AAAAAAAAAAAAAAAAAAAAAA==";
    const parts = [`<script nonce="`, `">a</script><script nonce="`, `">a</script>${previous}\0${previous}`];
    const gzip = splicedGzip(parts.map(bytes), previous.length);
    const fresh = "nonce-BBBBBBBBBBBBBBBBBBBBBB==";
    expect(gunzipSync(gzip.withJoin(bytes(fresh))).toString("utf8")).toBe(join(parts, fresh));
    expect(gunzipSync(gzip.withJoin(bytes(previous))).toString("utf8")).toBe(join(parts, previous));
  });

  it("keeps the window right past 32 KB and around runs of NUL bytes", () => {
    const long = (seed: number, length: number) => Array.from({ length }, (_, n) => String.fromCharCode(97 + ((n * seed) % 23))).join("");
    const cases = [
      [long(7, 40_000), long(7, 100), long(11, 70_000), long(7, 5_000)],
      [long(3, 32_000), long(3, 767), long(3, 1), long(3, 33_000)],
      ["x\0\0\0\0\0\0\0 y", "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", "\0x\0"],
    ];
    for (const parts of cases) {
      const gzip = splicedGzip(parts.map(bytes), 24);
      for (const between of ["A".repeat(24), "\0".repeat(24), "nonce-0123456789abcdefgh"]) {
        expect(gunzipSync(gzip.withJoin(bytes(between))).toString("utf8") === join(parts, between)).toBe(true);
      }
    }
  });

  it("stays within a tenth of whole-page gzip on a page-sized document", () => {
    const paragraph = (n: number) => `<p class="text-lg leading-relaxed">Paragraph ${n} on mindfulness, breath and the path.</p>`;
    const parts = [
      `<!DOCTYPE html><html><head><script nonce="`,
      `">window.a=1</script></head><body>${Array.from({ length: 400 }, (_, n) => paragraph(n)).join("")}<script nonce="`,
      `">window.b=2</script></body></html>`,
    ];
    const page = join(parts, "x".repeat(24));
    const spliced = splicedGzip(parts.map(bytes), 24).withJoin(bytes("x".repeat(24)));
    expect(gunzipSync(spliced).toString("utf8")).toBe(page);
    expect(spliced.length).toBeLessThan(gzipSync(page, { level: 9 }).length * 1.1);
  });

  it("refuses a join of another length than the one it was made for", () => {
    const gzip = splicedGzip([bytes("a"), bytes("b")], 24);
    expect(() => gzip.withJoin(bytes("short"))).toThrow(RangeError);
  });

  it("holds only the compressed bytes, not the buffers zlib handed them out of", () => {
    const parts = Array.from({ length: 7 }, (_, n) => bytes(`<div>${"part ".repeat(20 + n)}</div>`));
    const gzip = splicedGzip(parts, 24);
    const page = gzip.withJoin(bytes("y".repeat(24)));
    expect(gzip.bytes).toBeLessThan(page.length);
    expect(gzip.bytes).toBeGreaterThan(0);
  });
});
