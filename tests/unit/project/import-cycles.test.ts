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

/**
 * The folders of app/ as layers, lowest first (docs/architecture.md): a module imports, even for a type only,
 * modules of its own folder and of folders in lower layers, never of its layer or above. Folders of one layer
 * share none of their code. app/'s own files (the root, the entries) and then app/routes sit above them all.
 */
const LAYERS = [
  ["i18n", "hooks", "metrics", "database"],
  ["site"],
  ["document", "images"],
  ["blog"],
  ["crawlers", "counts"],
  ["search", "beacon"],
  ["fediverse"],
  ["report", "services"],
  ["components"],
  ["(app)"],
  ["routes"],
];
/** Imports that run up a layer on purpose, each with its reason. */
const UPWARD = new Set([
  // The 404 screen reads the site's settings through the root's hook (decision 039; see `known` below).
  "components → (app)",
]);

const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder));
/** The folder of app/ a module is in: "(app)" for app/'s own files, undefined outside app/. */
const folderOf = (file: string) =>
  file.startsWith("app/") ? (/^app\/([^/]+)\//.exec(file)?.[1] ?? "(app)") : undefined;

async function graph() {
  const { output } = await cruise(
    ["app", "server"],
    { tsPreCompilationDeps: true, tsConfig: { fileName: "tsconfig.json" }, doNotFollow: { path: "node_modules" } },
    {},
    { tsConfig: extractTSConfig("tsconfig.json") },
  );
  if (typeof output === "string") throw new Error(output);
  return output.modules;
}

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
    const circles = output.summary.violations.map((violation) =>
      [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(" → "),
    );
    // The ~/ paths resolve (a graph without them would find no circle at all).
    expect(
      output.modules
        .find((module) => module.source === "app/root.tsx")
        ?.dependencies.some((dependency) => dependency.resolved === "app/components/NotFound.tsx"),
    ).toBe(true);
    expect(circles.filter((circle) => !known.has(circle))).toEqual([]);
  }, 60_000);

  it("run down the layers of app/: no folder imports one of its layer or above it, so no two import each other", async () => {
    const modules = await graph();
    const folders = new Set(modules.map((module) => folderOf(module.source)).filter((folder) => folder !== undefined));
    // Every folder of app/ has its layer: a new folder must be placed (and this list read again).
    expect([...folders].filter((folder) => layerOf(folder) < 0)).toEqual([]);
    const upward = new Set<string>();
    const examples: string[] = [];
    for (const module of modules) {
      const from = folderOf(module.source);
      if (!from) continue;
      for (const dependency of module.dependencies) {
        const to = folderOf(dependency.resolved);
        if (!to || to === from || layerOf(to) < layerOf(from)) continue;
        const pair = `${from} → ${to}`;
        if (UPWARD.has(pair)) continue;
        if (!upward.has(pair)) examples.push(`${pair}: ${module.source} imports ${dependency.resolved}`);
        upward.add(pair);
      }
    }
    expect(examples).toEqual([]);
  }, 60_000);
});
