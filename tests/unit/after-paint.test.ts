import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { afterPaintScripts } from "~/after-paint.server";
import { INERT_MODULE_TYPE, INERT_PRELOAD_REL, deferModuleScripts, splitAtOpenTag } from "~/lib/after-paint-scripts";

// The shape of Remix's <Scripts> output, with text around it that must come through untouched.
const page = [
  '<!DOCTYPE html><html lang="en"><head><title>Zazen — 坐禅</title></head><body><main><p>Sit down ✨ &lt;link rel=&quot;modulepreload&quot;&gt;</p></main>',
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js"/>',
  '<script nonce="abc+/=">window.__remixContext = {};</script>',
  '<script nonce="abc+/=" type="module" async="">import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");</script>',
  '</body></html><script nonce="abc+/=">window.__remixContext.streamController.enqueue("[]")</script>',
].join("");

describe("scripts after the first paint", () => {
  const rewritten = deferModuleScripts(page, "abc+/=");

  it("makes Remix's preloads and module script inert, keeping every element", () => {
    expect(rewritten).not.toContain('rel="modulepreload"');
    expect(rewritten.match(new RegExp(`<link rel="${INERT_PRELOAD_REL}" href=`, "g"))).toHaveLength(2);
    expect(rewritten).toContain(`<script nonce="abc+/=" type="${INERT_MODULE_TYPE}" async="">import "/build/manifest-C.js";`);
    expect(rewritten).not.toContain('type="module"');
    // Text that reads like a preload (React escapes it) is left as it is.
    expect(rewritten).toContain("Sit down ✨ &lt;link rel=&quot;modulepreload&quot;&gt;</p>");
  });

  it("adds one loader, with the response's nonce, as the last element of <body>", () => {
    expect(rewritten.match(/<script nonce="abc\+\/=">\(function/g)).toHaveLength(1);
    expect(rewritten).toMatch(/<script nonce="abc\+\/=">\(function[^<]*<\/script><\/body>/);
  });

  it("works without a nonce", () => {
    const plain = deferModuleScripts(page.replaceAll(' nonce="abc+/="', ""), undefined);
    expect(plain).toContain(`<script type="${INERT_MODULE_TYPE}" async="">`);
    expect(plain).toMatch(/<script>\(function[^<]*<\/script><\/body>/);
  });

  it("holds back a tag cut at the end of a chunk, and nothing else", () => {
    expect(splitAtOpenTag('<p>a</p><link rel="modu')).toEqual(["<p>a</p>", '<link rel="modu']);
    expect(splitAtOpenTag("<p>a</p>")).toEqual(["<p>a</p>", ""]);
    expect(splitAtOpenTag("no tags")).toEqual(["no tags", ""]);
    const long = `<script>${"x".repeat(300)}`;
    expect(splitAtOpenTag(long)).toEqual([long, ""]);
  });

  it("gives the same document through the stream however the chunks are cut, even inside a character", async () => {
    const bytes = Buffer.from(page);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const output = await text(Readable.from(chunks).pipe(afterPaintScripts("abc+/=")));
      expect(output, `cut at byte ${cut}`).toBe(rewritten);
    }
    const bytewise = await text(Readable.from([...bytes].map((byte) => Buffer.from([byte]))).pipe(afterPaintScripts("abc+/=")));
    expect(bytewise).toBe(rewritten);
  });
});
