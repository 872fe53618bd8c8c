import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/server/**/*.test.{ts,tsx}"],
    environment: "node",
    // Two files at a time, not Vitest's default of one on a 2-core machine (cores - 1): most server tests
    // wait on the site processes they start, which run on the other core.
    maxWorkers: 2,
    // VITEST_JSON: another report's file (.ci/other-node), so that the suite's stays the main Node's.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "tests/.artifacts/vitest.json" }]],
  },
});
