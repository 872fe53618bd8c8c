import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/server/**/*.test.{ts,tsx}"],
    environment: "node",
    // Two files at a time even on two cores (Vitest's default there is one): the server tests spend much of
    // their time waiting on servers, databases and timers, which the other file fills (312 s against 232 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One process per worker for all its files, not a fresh one per file: no test mocks modules or changes
    // the environment, and starting and loading each file's process again cost a fifth of the suite's CPU
    // (unit tests 81 → 48 CPU-s, server tests 310 → 256; docs/decisions/051).
    isolate: false,
    // Vitest's 5 s is short for a server test whose requests wait on site processes sharing two cores with
    // browsers and another Node's run (a keyword page's seven requests overran it on CI); a test that hangs
    // still fails.
    testTimeout: 20_000,
    // VITEST_JSON: another report's file (.ci/other-node), so that the suite's stays the main Node's.
    reporters: ["default", ["json", { outputFile: process.env.VITEST_JSON ?? "tests/.artifacts/vitest.json" }]],
  },
});
