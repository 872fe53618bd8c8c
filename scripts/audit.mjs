// `npm run audit`: the runtime dependencies (npm audit --omit=dev) against the registry's advisories.
// Exit 0: none known, or only advisories that SECURITY.md's review lists as fixed, patched here or not
// reached; 1: an advisory the review does not list, or lists as open (listed); 2: the registry did not answer
// its audit endpoint, so nothing was checked (some registries and mirrors have no such endpoint). Extra
// arguments go to npm audit.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The review's verdict on each advisory: the rows of SECURITY.md's tables that start with a GHSA id. */
const reviewed = new Map(
  [
    ...readFileSync(new URL("../SECURITY.md", import.meta.url), "utf8").matchAll(
      /^\| *\*{0,2}(GHSA-[\w-]+)\b.*\| *([^|]+?) *\| *$/gm,
    ),
  ].map(([, id, state]) => [id.toLowerCase(), state.replace(/\*/g, "")]),
);
/** A state that settles an advisory for this site: anything the review did not call open. */
const settled = (state) => state !== undefined && !/^open\b/i.test(state);

const run = spawnSync("npm", ["audit", "--omit=dev", "--json", ...process.argv.slice(2)], {
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = undefined;
}

if (!report || !report.vulnerabilities) {
  const reason =
    report?.message ??
    report?.error?.summary ??
    (run.stderr.trim().split("\n").at(-1) || `npm audit exited with ${run.status}`);
  console.error(`npm run audit: the registry did not answer its audit endpoint (${reason}).`);
  console.error(
    "Nothing was checked. Run it where the registry's audit endpoint answers, or read SECURITY.md's advisory review.",
  );
  process.exit(2);
}

const found = Object.values(report.vulnerabilities);
if (found.length === 0) {
  const checked = report.metadata?.dependencies?.prod ?? report.metadata?.dependencies?.total ?? "all";
  console.log(`npm run audit: no known advisory in the runtime dependencies (${checked} packages checked).`);
  process.exit(0);
}
const stateOf = (via) => reviewed.get(/GHSA-[\w-]+/i.exec(via.url ?? "")?.[0].toLowerCase() ?? "");
let unsettled = 0;
for (const item of found) {
  const advisories = item.via.filter((via) => typeof via === "object");
  const through = item.via.filter((via) => typeof via === "string");
  console.log(`${item.severity.padEnd(8)} ${item.name}${item.range ? ` ${item.range}` : ""}`);
  for (const via of advisories) {
    const state = stateOf(via);
    if (!settled(state)) unsettled += 1;
    console.log(
      `         ${`${via.title ?? via.name} ${via.url ?? ""}`.trim()}: ${state ? `reviewed, ${state}` : "NOT REVIEWED in SECURITY.md"}`,
    );
  }
  if (through.length > 0) console.log(`         through ${through.join(", ")}`);
}
const packages = `${found.length} runtime package${found.length === 1 ? "" : "s"} with a known advisory`;
if (unsettled === 0) {
  console.log(`npm run audit: ${packages}, each reviewed in SECURITY.md as fixed, patched here or not reached.`);
  process.exit(0);
}
console.log(
  `npm run audit: ${packages}; ${unsettled} advisor${unsettled === 1 ? "y" : "ies"} open or not reviewed in SECURITY.md.`,
);
process.exit(1);
