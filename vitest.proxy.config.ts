import path from "node:path";
import { defineConfig } from "vitest/config";

// npm run test:proxy: nginx (docs/nginx.conf) in front of two origin processes. Needs a build and nginx.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/proxy/**/*.test.ts"],
    environment: "node",
    // Each file runs its own nginx, origins and backend: one file at a time on a shared machine.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "tests/.artifacts/proxy.json" }]],
  },
});
