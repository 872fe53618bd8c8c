import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HELD_MEDIA, HELD_MODULE_TYPE, holdModuleScripts } from "~/document/hold-module-scripts";
import { afterPaintLoader } from "~/document/scripts-after-paint.server";

// The shape of Remix's <Scripts> output (a fragment of preloads, a fragment of two scripts, an array of
// keyed preloads), held until the page has painted.
const scripts = createElement(
  Fragment,
  null,
  createElement("link", { rel: "modulepreload", href: "/build/manifest-C.js" }),
  [
    createElement("link", { key: "a", rel: "modulepreload", href: "/build/entry.client-A.js" }),
    createElement("link", { key: "b", rel: "modulepreload", href: "/build/_shared/chunk-B.js?a=1&b=2" }),
  ],
  createElement(
    Fragment,
    null,
    createElement("script", {
      suppressHydrationWarning: true,
      dangerouslySetInnerHTML: { __html: "window.__remixContext = {};" },
    }),
    createElement("script", {
      suppressHydrationWarning: true,
      type: "module",
      async: true,
      dangerouslySetInnerHTML: { __html: 'import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");' },
    }),
  ),
  [],
);

describe("scripts held until the page has painted", () => {
  const { node, held } = holdModuleScripts(scripts);
  const html = renderToStaticMarkup(createElement(Fragment, null, node));

  it("keeps every preload, with a media query no screen matches, so none is fetched", () => {
    expect(html.match(/<link rel="modulepreload" [^>]*>/g)).toEqual([
      `<link rel="modulepreload" href="/build/manifest-C.js" media="${HELD_MEDIA}"/>`,
      `<link rel="modulepreload" href="/build/entry.client-A.js" media="${HELD_MEDIA}"/>`,
      `<link rel="modulepreload" href="/build/_shared/chunk-B.js?a=1&amp;b=2" media="${HELD_MEDIA}"/>`,
    ]);
  });

  it("turns the module script into a data block (no async: a data block may not have it), text unchanged, and the other script as it was", () => {
    expect(held).toBe(true);
    expect(html).toContain(
      `<script type="${HELD_MODULE_TYPE}">import "/build/manifest-C.js";\nimport("/build/entry.client-A.js");</script>`,
    );
    expect(html).toContain("<script>window.__remixContext = {};</script>");
    expect(html).not.toContain('type="module"');
  });

  it("lists the inline scripts that still run, for the CSP: not the held one, not a data block", () => {
    const withData = createElement(
      Fragment,
      null,
      scripts,
      createElement("script", { type: "application/ld+json", dangerouslySetInnerHTML: { __html: "{}" } }),
    );
    expect(holdModuleScripts(withData).inline).toEqual(["window.__remixContext = {};"]);
  });

  it("says there is nothing to hold where there is no module script (after hydration <Scripts> renders nothing)", () => {
    expect(holdModuleScripts(null)).toEqual({ node: null, held: false, inline: [] });
    expect(holdModuleScripts(createElement("link", { rel: "modulepreload", href: "/x.js" })).held).toBe(false);
  });

  it("has a loader that starts the held modules and nothing else in the page", () => {
    expect(afterPaintLoader).toMatch(/^\(function loadModulesAfterPaint\(/);
    expect(afterPaintLoader).toContain(`("${HELD_MEDIA}","${HELD_MODULE_TYPE}")`);
  });
});
