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
          for (const between of joins) expect(gunzipSync(gzip(bytes(between))).toString("utf8")).toBe(join(parts, between));
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
    expect(gunzipSync(gzip(bytes(fresh))).toString("utf8")).toBe(join(parts, fresh));
    expect(gunzipSync(gzip(bytes(previous))).toString("utf8")).toBe(join(parts, previous));
  });

  it("stays within a tenth of whole-page gzip on a page-sized document", () => {
    const paragraph = (n: number) => `<p class="text-lg leading-relaxed">Paragraph ${n} on mindfulness, breath and the path.</p>`;
    const parts = [
      `<!DOCTYPE html><html><head><script nonce="`,
      `">window.a=1</script></head><body>${Array.from({ length: 400 }, (_, n) => paragraph(n)).join("")}<script nonce="`,
      `">window.b=2</script></body></html>`,
    ];
    const page = join(parts, "x".repeat(24));
    const spliced = splicedGzip(parts.map(bytes), 24)(bytes("x".repeat(24)));
    expect(spliced.length).toBeLessThan(gzipSync(page, { level: 9 }).length * 1.1);
  });

  it("refuses a join of another length than the one it was made for", () => {
    const gzip = splicedGzip([bytes("a"), bytes("b")], 24);
    expect(() => gzip(bytes("short"))).toThrow(RangeError);
  });
});
