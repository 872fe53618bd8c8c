import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/server/**/*.test.{ts,tsx}"],
    environment: "node",
    reporters: ["default", ["json", { outputFile: "tests/.artifacts/vitest.json" }]],
  },
});
