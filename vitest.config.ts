import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/server/**/*.test.{ts,tsx}"],
    environment: "node",
    // VITEST_JSON: another report's file (.ci/other-node), so that the suite's stays the main Node's.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "tests/.artifacts/vitest.json" }]],
  },
});
