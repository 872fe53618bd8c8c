// CI's last line must count every runner, the other Nodes' included: a failure on Node 24 alone once left the
// line at "N passed, 0 failed" while CI failed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";

const script = path.resolve("scripts/ci-summary.mjs");
let dir = "";
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "ci-summary-"));
  mkdirSync(path.join(dir, "tests/.artifacts"), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
const vitestReport = (passed: number, failed: number) =>
  JSON.stringify({ numPassedTests: passed, numFailedTests: failed, testResults: [] });
const lastLine = (...versions: string[]) =>
  execFileSync("node", [script, "suite.txt", ...versions], { cwd: dir, encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1);

test("the line adds each other Node's tests and route comparison to the suite's summary", () => {
  write("suite.txt", "...\n1397 passed, 0 failed\n");
  write("tests/.artifacts/vitest-node-24.json", vitestReport(790, 1));
  write("tests/.artifacts/node-24.status", '{"tests": 1, "routes": 0}');
  write("tests/.artifacts/vitest-node-22.json", vitestReport(791, 0));
  write("tests/.artifacts/node-22.status", '{"tests": 0, "routes": 0}');
  expect(lastLine("24", "22")).toBe("2980 passed, 1 failed");
});

test("a Node whose tests failed outside any test, or whose routes differ, counts as failed", () => {
  write("suite.txt", "10 passed, 0 failed\n");
  write("tests/.artifacts/vitest-node-24.json", vitestReport(5, 0));
  write("tests/.artifacts/node-24.status", '{"tests": 1, "routes": 1}');
  expect(lastLine("24")).toBe("15 passed, 2 failed");
});

test("a Node that left no report, or a suite with no summary, counts as failed", () => {
  write("suite.txt", "the build failed\n");
  expect(lastLine("24")).toBe("0 passed, 3 failed");
});

test("the summary names each failed test, the suite's and each other Node's, above its last line", () => {
  write(
    "suite.txt",
    "...\nFailed: unit and server (Vitest): /x/tests/unit/a.test.ts › a thing is right\n1 passed, 1 failed\n",
  );
  write(
    "tests/.artifacts/vitest-node-24.json",
    JSON.stringify({
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        {
          name: "/x/tests/unit/b.test.ts",
          status: "failed",
          assertionResults: [
            {
              fullName: "b holds",
              status: "failed",
              failureMessages: ["\u001b[31mAssertionError: expected 503 to be 200\u001b[39m\n    at b.test.ts:3"],
            },
            { fullName: "b2", status: "passed" },
          ],
        },
      ],
    }),
  );
  write("tests/.artifacts/node-24.status", '{"tests": 1, "routes": 0}');
  const output = execFileSync("node", [script, "suite.txt", "24"], { cwd: dir, encoding: "utf8" });
  expect(output).toContain("Failed: unit and server (Vitest): /x/tests/unit/a.test.ts › a thing is right");
  expect(output).toContain("failed: /x/tests/unit/b.test.ts › b holds — AssertionError: expected 503 to be 200\n");
  expect(output).not.toContain("b2");
  expect(output.trim().split("\n").at(-1)).toBe("3 passed, 2 failed");
});
