import { cruise } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { describe, expect, it } from "vitest";

// A module that imports, even for a type only, a module that leads back to it: the folders per concern
// (docs/decisions/039) stay layers only while no import goes round in a circle.
const known = new Set([
  // The 404 screen reads the site's settings through the root's hook, and the root renders it. Breaking
  // it splits the root's code into more chunks: every page would load 0.8 KB more (decision 039).
  "app/components/NotFound.tsx → app/root.tsx → app/components/NotFound.tsx",
]);

describe("imports", () => {
  it("go round in no new circle in app/ and server/", async () => {
    const { output } = await cruise(
      ["app", "server"],
      {
        validate: true,
        ruleSet: { forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }] },
        // Type-only imports count: app/root.tsx and the translation hook once imported each other that way.
        tsPreCompilationDeps: true,
        tsConfig: { fileName: "tsconfig.json" },
        doNotFollow: { path: "node_modules" },
      },
      {},
      { tsConfig: extractTSConfig("tsconfig.json") },
    );
    if (typeof output === "string") throw new Error(output);
    const circles = output.summary.violations.map((violation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(" → "));
    // The ~/ paths resolve (a graph without them would find no circle at all).
    expect(output.modules.find((module) => module.source === "app/root.tsx")?.dependencies.some((dependency) => dependency.resolved === "app/components/NotFound.tsx")).toBe(true);
    expect(circles.filter((circle) => !known.has(circle))).toEqual([]);
  }, 60_000);
});
