// Passed and failed tests from the runners' JSON reports: shared by `npm test` (scripts/test-all.mjs) and CI's
// summary over every Node (scripts/ci-summary.mjs), so that both count a runner's failures the same way.
import { existsSync, readFileSync } from "node:fs";

export const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

/** Passed and failed tests from a Vitest JSON report; a test file that failed outside its tests (an import, a hook) is a failure. */
export const vitestCounts = (report) => ({
  passed: report.numPassedTests,
  failed:
    report.numFailedTests +
    (report.testResults ?? []).filter(
      (file) => file.status === "failed" && !file.assertionResults?.some((test) => test.status === "failed"),
    ).length,
});

/** Passed and failed tests from a Playwright JSON report; an error outside any test (a server that would not start) is a failure. */
export const playwrightCounts = (report) => ({
  passed: report.stats.expected + report.stats.flaky,
  failed: report.stats.unexpected + (report.errors?.length ?? 0),
});

/**
 * A runner's counts with its exit status: an exit status that the counted failures do not explain, or no test
 * at all, is one failure more, with `problem` saying why.
 */
export const runnerCounts = (report, counts, status) => {
  const found = report ? counts(report) : { passed: 0, failed: 0 };
  if ((status !== 0 && found.failed === 0) || found.passed + found.failed === 0) {
    return {
      ...found,
      failed: found.failed + 1,
      problem: `${report ? "reported" : "wrote no report and"} exited with status ${status} after ${found.passed + found.failed} tests`,
    };
  }
  return found;
};

/** The first line of a failure's message, without colours, short enough for one line of the summary. */
const reason = (message) => {
  const line = String(message ?? "")
    // eslint-disable-next-line no-control-regex -- the escape character starts a terminal colour
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .find((text) => text.trim() !== "");
  if (!line) return "";
  const text = line.trim();
  return ` — ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
};

/**
 * The failed tests in a Vitest or Playwright JSON report, "file › test — the first line of why", so that a
 * summary can say which failed, and how, when the runner's own output has scrolled away (CI keeps only the
 * end of the log).
 */
export const failedTests = (report) => {
  if (!report) return [];
  if (report.testResults) {
    return report.testResults.flatMap((file) => {
      const failed = (file.assertionResults ?? [])
        .filter((test) => test.status === "failed")
        .map((test) => `${file.name} › ${test.fullName}${reason(test.failureMessages?.[0])}`);
      return failed.length === 0 && file.status === "failed"
        ? [`${file.name} (outside its tests)${reason(file.message)}`]
        : failed;
    });
  }
  const names = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = (test.results ?? []).map((result) => result.error?.message).find(Boolean);
        names.push(`${spec.file} › ${spec.title} [${test.projectName}]${reason(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return [...names, ...(report.errors ?? []).map((error) => `(outside any test)${reason(error.message)}`)];
};
