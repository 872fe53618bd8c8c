// `npm test`: builds the site if needed, runs the unit and server tests (Vitest), the browser tests (Playwright in
// Chromium, JavaScript on and off), the Firefox and WebKit tests (tests/engines) and, where nginx is
// installed, the proxy tests; then prints one summary line over all of them: "N passed, N failed". A runner
// that errored, or ran no test, counts as a failure.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { failedTests, playwrightCounts, readJson, runnerCounts, vitestCounts } from "./test-counts.mjs";

const artifacts = "tests/.artifacts";
const run = (command, args) => spawnSync(command, args, { stdio: "inherit" }).status ?? 1;
/** Runs a command with the terminal as its output, without blocking the output of a runner beside it. */
const runAloud = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("close", (status) => resolve(status ?? 1));
  });
/** Runs a command with its output kept, to be printed when it ends: a runner beside another one. */
const runQuietly = (command, args) =>
  new Promise((resolve) => {
    const output = [];
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (status) => resolve({ status: status ?? 1, output: Buffer.concat(output) }));
  });
const runners = [
  {
    name: "unit and server (Vitest)",
    command: ["npx", ["vitest", "run"]],
    report: "vitest.json",
    counts: vitestCounts,
  },
  {
    name: "browser (Playwright)",
    command: ["npx", ["playwright", "test"]],
    report: "playwright.json",
    counts: playwrightCounts,
  },
];
// Firefox and WebKit: Debian's firefox-esr, and WebKitGTK's MiniBrowser through WebKitWebDriver under Xvfb.
// Missing browsers are a failure, not a skip: .ci/run installs them.
runners.push({
  name: "Firefox and WebKit (tests/engines)",
  command: ["npm", ["run", "test:engines"]],
  report: "engines.json",
  counts: vitestCounts,
});
if (existsSync("/usr/sbin/nginx") || process.env.NGINX_PATH) {
  // Beside the Firefox and WebKit tests: each leaves much of the two cores idle, waiting on browsers, nginx
  // and expiry times (docs/decisions/045). Its output follows theirs.
  runners.push({
    name: "proxy (nginx)",
    command: ["npm", ["run", "test:proxy"]],
    report: "proxy.json",
    counts: vitestCounts,
    beside: true,
  });
} else {
  console.log("nginx is not installed: the proxy tests are skipped (apt-get install nginx-light to run them).");
}

for (const runner of runners) rmSync(`${artifacts}/${runner.report}`, { force: true });

/** The machine's busy and total CPU time so far (Linux's /proc/stat; none elsewhere). */
const cpuTicks = () => {
  if (!existsSync("/proc/stat")) return undefined;
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3] - fields[4], total };
};
/** How long each runner took and how busy the cores were meanwhile: what a runner leaves idle is room beside it. */
const timings = [];
const timed = async (name, work) => {
  const start = performance.now();
  const before = cpuTicks();
  const result = await work();
  const after = cpuTicks();
  const busy =
    before && after && after.total > before.total
      ? Math.round((100 * (after.busy - before.busy)) / (after.total - before.total))
      : undefined;
  timings.push(
    `${String(Math.round((performance.now() - start) / 1000)).padStart(6)} s  ${busy === undefined ? "  ?" : String(busy).padStart(3)} %  ${name}`,
  );
  return result;
};

let passed = 0;
let failed = 0;
const problems = [];
const failures = [];
// Builds unless the build is newer than every source (as after .ci/run's build step).
if (run("node", ["scripts/build-if-needed.mjs"]) !== 0) {
  problems.push("the build failed");
  failed += 1;
} else {
  // A runner marked `beside` starts with the one before it, its output kept until that one ends.
  const besides = new Map();
  for (const [index, runner] of runners.entries()) {
    const next = runners[index + 1];
    if (next?.beside) besides.set(next, runQuietly(...next.command));
    let status;
    if (runner.beside) {
      const result = await timed(`${runner.name}, after the one it ran beside`, () => besides.get(runner));
      process.stdout.write(result.output);
      status = result.status;
    } else {
      // A runner with another beside it is timed with it (the two share the cores).
      const name = next?.beside ? `${runner.name}, with ${next.name} beside it` : runner.name;
      status = await timed(name, () => runAloud(...runner.command));
    }
    const report = readJson(`${artifacts}/${runner.report}`);
    const counts = runnerCounts(report, runner.counts, status);
    for (const name of failedTests(report)) failures.push(`${runner.name}: ${name}`);
    passed += counts.passed;
    failed += counts.failed;
    if (counts.problem) problems.push(`${runner.name} ${counts.problem}`);
  }
}
if (timings.length > 0) console.log(`Runners' times, and how busy the cores were:\n${timings.join("\n")}`);
for (const name of failures) console.log(`Failed: ${name}`);
for (const problem of problems) console.error(`Runner error: ${problem}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
