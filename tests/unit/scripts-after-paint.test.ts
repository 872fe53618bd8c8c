import { describe, expect, it } from "vitest";
import { inlineScripts } from "~/lib/inline-scripts";
import { HELD_MEDIA, HELD_MODULE_TYPE, holdScriptsUntilPainted } from "~/lib/scripts-after-paint";

// The shape of Remix's <Scripts> output, with text around it that must come through untouched.
const page = [
  '<!DOCTYPE html><html lang="en"><head><title>Zazen — 坐禅</title></head><body><main><p>Sit down ✨ &lt;link rel=&quot;modulepreload&quot;&gt;</p>',
  '<p title="<script type=&quot;module&quot;>">x</p><!-- <script type="module">commented()</script> --></main>',
  '<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/_shared/chunk-B.js?a=1&amp;b=2"/>',
  "<script>window.__remixContext = {};</script>",
  '<script type="module" async="">import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");</script>',
  '</body></html><script>window.__remixContext.streamController.enqueue("[]")</script>',
].join("");

describe("scripts held until the page has painted", () => {
  const held = holdScriptsUntilPainted(page);

  it("keeps every preload, with a media query no screen matches, so none is fetched", () => {
    expect(held.match(/<link rel="modulepreload" [^>]*>/g)).toEqual([
      `<link rel="modulepreload" href="/build/entry.client-A.js" media="${HELD_MEDIA}"/>`,
      `<link rel="modulepreload" href="/build/_shared/chunk-B.js?a=1&amp;b=2" media="${HELD_MEDIA}"/>`,
    ]);
  });

  it("turns the module script into a data block (no async: a data block may not have it), text unchanged", () => {
    expect(held).toContain(`<script type="${HELD_MODULE_TYPE}">import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");</script>`);
    // The one left is inside a comment.
    expect(held.match(/<script type="module"/g)).toHaveLength(1);
  });

  it("adds one loader as the last element of <body>, and leaves everything else as it was", () => {
    const loaders = inlineScripts(held).filter((script) => script.includes(HELD_MODULE_TYPE));
    expect(loaders).toHaveLength(1);
    expect(held).toMatch(/<script>\(function loadModulesAfterPaint[^<]*<\/script><\/body>/);
    expect(held).toContain("Sit down ✨ &lt;link rel=&quot;modulepreload&quot;&gt;</p>");
    expect(held).toContain('<p title="<script type=&quot;module&quot;>">x</p><!-- <script type="module">commented()</script> -->');
    expect(held).toContain('</body></html><script>window.__remixContext.streamController.enqueue("[]")</script>');
  });

  it("leaves a document without a module script alone", () => {
    const plain = '<!DOCTYPE html><html><body><p>no scripts</p><link rel="modulepreload" href="/x.js"/></body></html>';
    expect(holdScriptsUntilPainted(plain)).toBe(plain);
  });
});
