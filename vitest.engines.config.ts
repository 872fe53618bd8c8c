import path from "node:path";
import { defineConfig } from "vitest/config";

// The Firefox and WebKit tests (tests/engines): Debian's firefox-esr and WebKitGTK's MiniBrowser against the
// production build. Needs a build, firefox-esr, webkit2gtk-driver and xvfb. One browser at a time: two
// cores, shared. ENGINE_SCREENSHOTS=1 runs the side-by-side screenshots instead (npm run screenshots:engines;
// one file of them: npm run screenshots:engines -- tests/engines/scripts.shots.ts).
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: process.env.ENGINE_SCREENSHOTS ? ["tests/engines/**/*.shots.ts"] : ["tests/engines/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/engines/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.ENGINE_SCREENSHOTS
      ? ["default"]
      : ["default", ["json", { outputFile: "tests/.artifacts/engines.json" }]],
  },
});
