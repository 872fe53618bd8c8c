// Runs before `npm start`: builds the site when there is no build yet or the sources are newer than it,
// so a fresh clone needs only `npm install && npm start`.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildEntry = path.join(root, "build", "index.js");
const serverEntry = path.join(root, "build", "server.js");
const workerEntry = path.join(root, "build", "markdown-worker.js");
const reportEntry = path.join(root, "build", "report.js");
const sources = [
  "app",
  "server",
  "public",
  "remix.config.js",
  "postcss.config.js",
  "package.json",
  "package-lock.json",
  "scripts/optimize-scripts.mjs",
  "scripts/precompress.mjs",
];

function newestChange(target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(full)) {
    if (target === "public" && entry === "build") continue;
    newest = Math.max(newest, newestChange(path.join(target, entry)));
  }
  return newest;
}

const entries = [buildEntry, serverEntry, workerEntry, reportEntry];
const builtAt = entries.every((entry) => existsSync(entry))
  ? Math.min(...entries.map((entry) => statSync(entry).mtimeMs))
  : 0;
const changedAt = Math.max(...sources.map(newestChange));
// `npm run dev` writes a development build to the same folder: never serve that as production.
const isProductionBuild = builtAt > 0 && readFileSync(buildEntry, "utf8").includes('mode = "production"');

if (builtAt > changedAt && isProductionBuild) {
  console.log("Build is up to date.");
} else {
  const reason = !builtAt
    ? "No build yet"
    : !isProductionBuild
      ? "The build is a development build (from npm run dev)"
      : "Sources changed since the last build";
  console.log(`${reason}: building…`);
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
