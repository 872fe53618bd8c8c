import { describe, expect, it } from "vitest";
import { inlineScripts } from "~/lib/inline-scripts";

describe("inlineScripts", () => {
  it("finds the inline scripts a browser runs, as written, each once", () => {
    const html =
      `<!DOCTYPE html><html><head><script>window.a = "&amp;" < 1 && 2 > 1;</script></head><body>` +
      `<script type="module">import "/build/x.js";</script><script src="/build/y.js"></script>` +
      `<script type="application/ld+json">{"@type":"WebSite"}</script><script>window.a = "&amp;" < 1 && 2 > 1;</script>` +
      `</body></html><script>late()</script>`;
    expect(inlineScripts(html)).toEqual(['window.a = "&amp;" < 1 && 2 > 1;', 'import "/build/x.js";', "late()"]);
  });

  it("is not fooled by script-like text in comments, attributes or another script", () => {
    const html =
      `<!-- <script>commented()</script> --><p title="<script>attr()</script>">x</p>` +
      `<script>document.write("<p>" + "</scr" + "ipt>")</script><textarea><script>text()</script></textarea>`;
    expect(inlineScripts(html)).toEqual(['document.write("<p>" + "</scr" + "ipt>")']);
  });
});
