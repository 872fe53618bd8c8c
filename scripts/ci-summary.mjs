// `node scripts/ci-summary.mjs SUITE_LOG VERSION...`: CI's last line, "N passed, N failed", over every test
// runner: `npm test` on the main Node (its own summary line, from its log) and, for each other Node that
// .ci/other-node ran, its Vitest report and its route comparison (one check). A runner that errored or ran
// nothing counts as failed, as in `npm test`; a log with no summary line is one failure.
import { existsSync, readFileSync } from "node:fs";
import { failedTests, readJson, runnerCounts, vitestCounts } from "./test-counts.mjs";

const [log, ...versions] = process.argv.slice(2);
const lines = [];
let passed = 0;
let failed = 0;
const add = (name, counts) => {
  passed += counts.passed;
  failed += counts.failed;
  lines.push(
    `  ${name}: ${counts.passed} passed, ${counts.failed} failed${counts.problem ? ` (${counts.problem})` : ""}`,
  );
};

const summary =
  log && existsSync(log) ? [...readFileSync(log, "utf8").matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1) : undefined;
add(
  "npm test",
  summary
    ? { passed: Number(summary[1]), failed: Number(summary[2]) }
    : { passed: 0, failed: 1, problem: "printed no summary" },
);
for (const version of versions) {
  // Written by .ci/other-node: the exit status of its tests and of its route comparison.
  const statusFile = `tests/.artifacts/node-${version}.status`;
  const status = existsSync(statusFile) ? JSON.parse(readFileSync(statusFile, "utf8")) : { tests: 1, routes: 1 };
  const report = readJson(`tests/.artifacts/vitest-node-${version}.json`);
  add(`Node ${version} unit and server tests`, runnerCounts(report, vitestCounts, status.tests));
  for (const name of failedTests(report)) lines.push(`    failed: ${name}`);
  add(`Node ${version} routes`, status.routes === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
}
// The suite's failed tests, as `npm test` listed them, again here: the end of the log is what is kept.
const listed =
  log && existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.startsWith("Failed: "))
    : [];
for (const line of listed) lines.splice(1, 0, `    ${line}`);
console.log(`Tests on every Node:\n${lines.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
