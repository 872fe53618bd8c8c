// `npm run audit`: the runtime dependencies (npm audit --omit=dev) against the registry's advisories.
// Exit 0: none known; 1: advisories found (listed); 2: the registry did not answer its audit endpoint, so
// nothing was checked (some registries and mirrors have no such endpoint). Extra arguments go to npm audit.
import { spawnSync } from "node:child_process";

const run = spawnSync("npm", ["audit", "--omit=dev", "--json", ...process.argv.slice(2)], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = undefined;
}

if (!report || !report.vulnerabilities) {
  const reason = report?.message ?? report?.error?.summary ?? (run.stderr.trim().split("\n").at(-1) || `npm audit exited with ${run.status}`);
  console.error(`npm run audit: the registry did not answer its audit endpoint (${reason}).`);
  console.error("Nothing was checked. Run it where the registry's audit endpoint answers, or read SECURITY.md's advisory review.");
  process.exit(2);
}

const found = Object.values(report.vulnerabilities);
if (found.length === 0) {
  const checked = report.metadata?.dependencies?.prod ?? report.metadata?.dependencies?.total ?? "all";
  console.log(`npm run audit: no known advisory in the runtime dependencies (${checked} packages checked).`);
  process.exit(0);
}
for (const item of found) {
  const advisories = item.via.filter((via) => typeof via === "object").map((via) => `${via.title ?? via.name} ${via.url ?? ""}`.trim());
  const through = item.via.filter((via) => typeof via === "string");
  console.log(`${item.severity.padEnd(8)} ${item.name}${item.range ? ` ${item.range}` : ""}`);
  for (const advisory of advisories) console.log(`         ${advisory}`);
  if (through.length > 0) console.log(`         through ${through.join(", ")}`);
}
console.log(`npm run audit: ${found.length} runtime package${found.length === 1 ? "" : "s"} with a known advisory (see SECURITY.md for the ones reviewed).`);
process.exit(1);
