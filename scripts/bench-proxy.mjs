// `npm run bench:proxy`: an article read through nginx (docs/nginx.conf, two origins) beside the same
// article read from one origin directly, as a browser asks for it (Accept-Encoding with br).
//
// The fake backend (50 ms a call) runs in this process; each origin, nginx (one worker) and autocannon
// run in processes of their own. Each target is warmed (nginx and the origin's page cache hold the
// page), then measured for --duration seconds at --connections connections. Prints a table.
// Options: --duration (10), --connections (32), --warmup (2), --accept-encoding ("gzip, deflate, br").
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { startNginx } from "../tests/support/nginx.mjs";
import { startSite } from "../tests/support/site-process.mjs";

const root = path.resolve(import.meta.dirname, "..");
const ARTICLE = "/blog/backend-article-1";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    warmup: { type: "string", default: "2" },
    "accept-encoding": { type: "string", default: "gzip, deflate, br" },
  },
});
const options = {
  duration: Number(values.duration),
  connections: Number(values.connections),
  warmup: Number(values.warmup),
  acceptEncoding: values["accept-encoding"] ?? "",
};

/** One autocannon run in a process of its own; its JSON result. */
function autocannon(url, seconds) {
  return new Promise((resolve, reject) => {
    const args = [path.join(root, "node_modules/autocannon/autocannon.js"), "-c", String(options.connections), "-d", String(seconds), "-j"];
    if (options.acceptEncoding) args.push("-H", `accept-encoding=${options.acceptEncoding}`);
    const child = spawn(process.execPath, [...args, url], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

process.chdir(root); // startSite resolves build/ from the working directory
const backend = await startFakeBackend({ latencyMs: 50 });
const settings = { BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, ALLOWED_HOSTS: "127.0.0.1" };
const origins = await Promise.all([startSite(settings), startSite(settings)]);
const nginx = await startNginx(origins.map((origin) => `127.0.0.1:${origin.port}`));
const rows = [];
try {
  for (const [name, url] of [
    ["through nginx (cache hit)", nginx.url + ARTICLE],
    ["one origin directly (page cache)", origins[0].url + ARTICLE],
  ]) {
    await autocannon(url, options.warmup);
    const result = await autocannon(url, options.duration);
    const failed = result.errors + result.timeouts + result.non2xx;
    rows.push(`| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${failed} |`);
    if (failed) console.error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`, result.statusCodeStats, nginx.errorLog());
  }
} finally {
  await nginx.stop();
  await Promise.all(origins.map((origin) => origin.stop()));
  await backend.close();
}
console.log(
  `${ARTICLE}, ${options.connections} connections, ${options.duration} s, Accept-Encoding: ${options.acceptEncoding || "(none)"}\n`,
);
console.log("| target | req/s | p50 | p99 | failed |\n|---|---|---|---|---|");
console.log(rows.join("\n"));
