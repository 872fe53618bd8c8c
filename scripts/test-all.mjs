// `npm test`: builds the site, runs the unit tests (Vitest) and the browser tests (Playwright, JavaScript
// on and off), then prints one summary line over both runners: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const artifacts = "tests/.artifacts";
const run = (command, args, env = {}) =>
  spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

for (const file of ["vitest.json", "playwright.json"]) rmSync(`${artifacts}/${file}`, { force: true });

const steps = [];
steps.push(["build", run("npm", ["run", "build"])]);
steps.push(["unit", run("npx", ["vitest", "run"])]);
if (steps[0][1] === 0) steps.push(["browser", run("npx", ["playwright", "test"])]);

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);
const vitest = readJson(`${artifacts}/vitest.json`);
const playwright = readJson(`${artifacts}/playwright.json`);

let passed = 0;
let failed = 0;
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
}
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
}
// A runner that crashed before writing its report counts as a failure, not as silence.
for (const [name, status] of steps) {
  const reported = name === "unit" ? vitest : name === "browser" ? playwright : true;
  if (status !== 0 && !reported) {
    console.error(`${name} step failed before reporting results`);
    failed += 1;
  }
}
if (steps[0][1] !== 0) failed += 1;

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || steps.some(([, status]) => status !== 0) ? 1 : 0);
