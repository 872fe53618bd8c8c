// `node scripts/slowest-tests.mjs [N] [LOG]`: the N (10) slowest test files of the last `npm test`, from the
// runners' JSON reports in tests/.artifacts. Vitest's reports time a file from its first test to its last,
// without its hooks (a file that starts its servers in beforeAll looks fast): given LOG, the output of `npm
// test`, Vitest's files are timed from its own lines there ("✓ file (N tests) 1234ms"), hooks included.
// Playwright's report gives each test's duration, summed here per file (its two workers share files).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const artifacts = "tests/.artifacts";
const count = Number(process.argv[2] ?? 10);
const log = process.argv[3];
const readJson = (file) =>
  existsSync(path.join(artifacts, file)) ? JSON.parse(readFileSync(path.join(artifacts, file), "utf8")) : undefined;
const relative = (file) => path.relative(process.cwd(), file);

/** @type {{ runner: string, file: string, ms: number }[]} */
const files = [];
for (const [report, runner] of [
  ["vitest.json", "vitest"],
  ["engines.json", "engines"],
  ["proxy.json", "proxy"],
]) {
  for (const result of readJson(report)?.testResults ?? [])
    files.push({ runner, file: relative(result.name), ms: result.endTime - result.startTime });
}
if (log && existsSync(log)) {
  const logged = new Map();
  // eslint-disable-next-line no-control-regex -- the log's colours
  const plain = readFileSync(log, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
  for (const line of plain.split("\n")) {
    const match = /^ [✓❯×↓] (tests\/\S+) \(.*\) (\d+)ms$/.exec(line);
    if (match) logged.set(match[1], Number(match[2]));
  }
  for (const entry of files) entry.ms = logged.get(entry.file) ?? entry.ms;
}
const playwright = readJson("playwright.json");
if (playwright) {
  const perFile = new Map();
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? [])
          perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + result.duration);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of playwright.suites ?? []) visit(suite);
  for (const [file, ms] of perFile) files.push({ runner: "playwright", file: path.join("tests/e2e", file), ms });
}

files.sort((a, b) => b.ms - a.ms);
console.log(
  `The ${Math.min(count, files.length)} slowest test files (of ${files.length}; Playwright's summed over its tests):`,
);
for (const { runner, file, ms } of files.slice(0, count))
  console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${runner.padEnd(10)} ${file}`);
