import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./tests/support/chromium.mjs";
import {
  brokenSite,
  configuredSite,
  OTHER_TITLE,
  OTHER_TOKEN,
  ports,
  sitesEnv,
  urls,
  writeSitesFile,
} from "./tests/support/servers.mjs";

// The sites file of the many-sites process, with this run's backend ports.
writeSitesFile();

// One folder of catalogues for the run (app/search), made once: the test workers, which load this config
// again, inherit it from the environment rather than make folders of their own.
process.env.E2E_CATALOGUE_DIR ||= mkdtempSync(path.join(tmpdir(), "e2e-catalogue-"));

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // Every blocked third-party frame would get a renderer process of its own: 10 % of the suite's CPU.
  "--disable-site-isolation-trials",
];

/**
 * A production build of the site on loopback, with only the given settings. With a sites file it answers
 * only its sites' hosts (421 for 127.0.0.1): the health check, which comes before the host check, says it is up.
 */
function site(port: number, env: Record<string, string> = {}) {
  return {
    command: "node build/server.js",
    url: env.SITES_FILE ? `http://127.0.0.1:${port}/healthz` : `http://127.0.0.1:${port}/`,
    // A catalogue of its own, empty at each run (app/search), without background calls to the fake backends, whose calls tests count.
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      CATALOGUE_DIR: path.join(process.env.E2E_CATALOGUE_DIR!, String(port)),
      CATALOGUE_SYNC: "off",
      ...env,
    },
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    timeout: 30_000,
  };
}

const desktop = { viewport: { width: 1280, height: 800 } };
const mobile = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "tests/.artifacts/playwright.json" }]],
  outputDir: "tests/.artifacts/playwright",
  use: {
    baseURL: urls.demo,
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // A trace of every test cost 30 % of the run; a failure keeps its error context and a screenshot.
    // To trace: npx playwright test --trace retain-on-failure.
    trace: "off",
    screenshot: "only-on-failure",
  },
  // Tags: @js / @nojs limit a test to one kind of visitor, @mobile / @desktop to one width. @crosswise runs
  // it once per kind of visitor at one width each: with JavaScript at 1280 px, without at 375 px.
  projects: [
    { name: "js-1280", use: { ...devices["Desktop Chrome"], ...desktop }, grepInvert: /@nojs|@mobile/ },
    { name: "js-375", use: { ...desktop, ...mobile }, grepInvert: /@nojs|@desktop|@crosswise/ },
    { name: "nojs-1280", use: { ...desktop, javaScriptEnabled: false }, grepInvert: /@js\b|@mobile|@crosswise/ },
    { name: "nojs-375", use: { ...mobile, javaScriptEnabled: false }, grepInvert: /@js\b|@desktop/ },
  ],
  webServer: [
    {
      command: `node tests/support/fake-backend.mjs --port ${ports.backend}`,
      url: `${urls.backend}/__calls`,
      reuseExistingServer: false,
      stdout: "ignore",
      timeout: 10_000,
    },
    {
      // The forest site's own backend (tests/e2e/sites.spec.ts): another credential, other titles.
      command: `node tests/support/fake-backend.mjs --port ${ports.otherBackend} --token ${OTHER_TOKEN} --title "${OTHER_TITLE}"`,
      url: `${urls.otherBackend}/__calls`,
      reuseExistingServer: false,
      stdout: "ignore",
      timeout: 10_000,
    },
    site(ports.demo),
    site(ports.configured, configuredSite),
    site(ports.broken, brokenSite),
    site(ports.sites, sitesEnv),
  ],
});
