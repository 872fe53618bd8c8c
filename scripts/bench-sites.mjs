// `npm run bench:sites`: what a request costs with one site and with 500 in the sites file.
//
// The production build serves embedded articles (no backend, so only the site's own work counts) from a
// sites file of 1 site and of 500 (half exact names, half *.domain patterns). For each, autocannon (in a
// process of its own) asks for the cached home page of the last site listed, by exact name and by pattern;
// the rounds alternate between the two files so a busy machine weighs on both alike. Also: time to start,
// and memory before and after every one of the 500 sites has been asked for its home page.
// Prints the figures; exits 1 when 500 sites serve fewer than 90 % of one site's requests per second.
// Options: --duration (seconds per run), --rounds, --connections.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { rssKb } from "../tests/support/site-process.mjs";
import {
  benchOptions,
  describeMachine,
  ensureBuild,
  load,
  median as middle,
  runBenchmark,
  site as startSite,
  stopLater,
} from "./bench-harness.mjs";

const SITES = 500;
const MIN_RATIO = 0.9;

const { duration, rounds, connections } = benchOptions(
  { duration: { default: 8, min: 1 }, rounds: { default: 3, min: 1 }, connections: { default: 32, min: 1 } },
  "node scripts/bench-sites.mjs [--duration 8] [--rounds 3] [--connections 32]",
);

/** Site n: an exact name when n is odd, a pattern when even; each with its own name and product. */
function sitesYaml(count) {
  const entries = Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const host = n % 2 ? `site-${n}.example.test` : `"*.pattern-${n}.example.test"`;
    return `  - hosts: [${host}]\n    SITE_PRODUCT: Product ${n}\n    SITE_NAME: Sangha ${n}\n    CONTENT_DIR: content/blog\n`;
  });
  return `sites:\n${entries.join("")}`;
}

const hostsOf = (count) => ({
  exact: `site-${count % 2 ? count : count - 1}.example.test`,
  pattern: `www.pattern-${count % 2 ? count - 1 : count}.example.test`,
});

const rssMb = (pid) => Math.round(rssKb(pid) / 1024);

async function autocannon(url, host) {
  const result = await load({ url, connections, duration, headers: { Host: host } });
  return { rps: result.requestsPerSecond, p99: result.p99, non2xx: result.non2xx + result.errors };
}

function get(url, host) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { Host: host } },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode));
      },
    );
    req.once("error", reject);
    req.end();
  });
}

await runBenchmark(async () => {
  ensureBuild();
  describeMachine();
  const dir = await mkdtemp(path.join(os.tmpdir(), "bench-sites-"));
  stopLater(() => rm(dir, { recursive: true, force: true }));
  const servers = {};
  for (const count of [1, SITES]) {
    const file = path.join(dir, `sites-${count}.yaml`);
    await writeFile(file, sitesYaml(count));
    const begin = performance.now();
    const site = await startSite({ SITES_FILE: file });
    servers[count] = { site, startMs: Math.round(performance.now() - begin), rssStart: rssMb(site.child.pid) };
  }
  const runs = { 1: { exact: [], pattern: [] }, [SITES]: { exact: [], pattern: [] } };
  for (let round = 0; round < rounds; round += 1) {
    for (const count of [1, SITES]) {
      const { site } = servers[count];
      for (const kind of /** @type {const} */ (["exact", "pattern"])) {
        if (count === 1 && kind === "pattern") continue; // the one site is an exact name
        const host = hostsOf(count)[kind];
        if ((await get(site.url, host)) !== 200) throw new Error(`${host} did not answer 200`);
        runs[count][kind].push(await autocannon(`${site.url}/`, host));
      }
    }
  }
  // Every site's home page once: the page cache and the per-site caches fill.
  const big = servers[SITES];
  for (let n = 1; n <= SITES; n += 1)
    await get(big.site.url, n % 2 ? `site-${n}.example.test` : `a.pattern-${n}.example.test`);
  const rssAfterAll = rssMb(big.site.child.pid);

  const median = (list, field) => middle(list.map((run) => run[field]));
  const row = (label, list) =>
    `| ${label} | ${Math.round(median(list, "rps"))} | ${median(list, "p99")} | ${list.reduce((sum, run) => sum + run.non2xx, 0)} |`;
  console.log(
    `\nCached home page, ${connections} connections, ${duration} s per run, median of ${rounds} alternating rounds\n`,
  );
  console.log("| sites file | req/s | p99 ms | non-2xx |\n|---|---|---|---|");
  console.log(row("1 site", runs[1].exact));
  console.log(row(`${SITES} sites, exact name`, runs[SITES].exact));
  console.log(row(`${SITES} sites, *.domain pattern`, runs[SITES].pattern));
  console.log(`\nStart (until /healthz): 1 site ${servers[1].startMs} ms, ${SITES} sites ${big.startMs} ms`);
  console.log(
    `Memory: 1 site ${servers[1].rssStart} MB at start; ${SITES} sites ${big.rssStart} MB at start, ${rssAfterAll} MB after each site's home page once`,
  );
  const one = median(runs[1].exact, "rps");
  const worst = Math.min(median(runs[SITES].exact, "rps"), median(runs[SITES].pattern, "rps"));
  const ratio = worst / one;
  console.log(
    `\n${SITES} sites at ${(ratio * 100).toFixed(0)} % of one site's req/s (target ≥ ${MIN_RATIO * 100} %): ${ratio >= MIN_RATIO ? "met" : "MISSED"}`,
  );
  return ratio >= MIN_RATIO ? 0 : 1;
});
