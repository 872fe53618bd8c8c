import path from "node:path";
import { defineConfig } from "vitest/config";

// The Firefox and WebKit tests (tests/engines): Debian's firefox-esr and WebKitGTK's MiniBrowser against the
// production build. Needs a build, firefox-esr, webkit2gtk-driver and xvfb. One browser at a time: two
// cores, shared.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/engines/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/engines/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "tests/.artifacts/engines.json" }]],
  },
});
