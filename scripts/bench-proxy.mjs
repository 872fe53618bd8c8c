// `npm run bench:proxy`: an article read through nginx (docs/nginx.conf, two origins) beside the same
// article read from one origin directly, as a browser asks for it (Accept-Encoding with br).
//
// The fake backend (50 ms a call) runs in this process; each origin, nginx (one worker) and autocannon
// run in processes of their own. Each target is warmed (nginx and the origin's page cache hold the
// page), then measured for --duration seconds at --connections connections. Prints a table.
import { FAKE_TOKEN } from "../tests/support/fake-backend.mjs";
import { startNginx } from "../tests/support/nginx.mjs";
import {
  backend as startBackend,
  benchOptions,
  describeMachine,
  ensureBuild,
  runBenchmark,
  site,
  stopLater,
  warmAndLoad,
} from "./bench-harness.mjs";

const ARTICLE = "/blog/backend-article-1";

const options = benchOptions(
  {
    duration: { default: 10, min: 1 },
    connections: { default: 32, min: 1 },
    warmup: { default: 2, min: 0 },
    "accept-encoding": { default: "gzip, deflate, br" },
  },
  'node scripts/bench-proxy.mjs [--duration 10] [--connections 32] [--warmup 2] [--accept-encoding "gzip, deflate, br"]',
);

await runBenchmark(async () => {
  ensureBuild();
  describeMachine();
  const backend = await startBackend({ latencyMs: 50 });
  const settings = { BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, ALLOWED_HOSTS: "127.0.0.1" };
  const origins = await Promise.all([site(settings), site(settings)]);
  const nginx = await startNginx(origins.map((origin) => `127.0.0.1:${origin.port}`));
  stopLater(() => nginx.stop());
  const headers = options.acceptEncoding ? { "accept-encoding": options.acceptEncoding } : {};
  const rows = [];
  for (const [name, url] of [
    ["through nginx (cache hit)", nginx.url + ARTICLE],
    ["one origin directly (page cache)", origins[0].url + ARTICLE],
  ]) {
    const result = await warmAndLoad(
      { url, headers },
      { warmup: options.warmup, duration: options.duration, connections: options.connections },
    );
    const failed = result.errors + result.non2xx;
    rows.push(
      `| ${name} | ${Math.round(result.requestsPerSecond)} | ${result.p50} ms | ${result.p99} ms | ${failed} |`,
    );
    if (failed) console.error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx`, nginx.errorLog());
  }
  console.log(
    `\n${ARTICLE}, ${options.connections} connections, ${options.duration} s, Accept-Encoding: ${options.acceptEncoding || "(none)"}\n`,
  );
  console.log("| target | req/s | p50 | p99 | failed |\n|---|---|---|---|---|");
  console.log(rows.join("\n"));
  return 0;
});
