// `npm run lighthouse`: Lighthouse (mobile preset) on the home page, the blog list and an article of the
// production build, served locally with the embedded content and no third-party settings. Prints the
// median of the runs per category. Usage: node scripts/lighthouse.mjs [--runs 3] [--hosted]
// --hosted: the hosted backend instead (the local fake, its image links on a local stand-in image
// host), with an article whose image link is dead (backend-article-7) among the routes.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { startFakeImageHost } from "../tests/support/fake-image-host.mjs";

const runsIndex = process.argv.indexOf("--runs");
const runs = runsIndex > -1 ? Number(process.argv[runsIndex + 1]) : 3;
const port = Number(process.env.LIGHTHOUSE_PORT ?? 4300);
const origin = `http://127.0.0.1:${port}`;
const hosted = process.argv.includes("--hosted");
const routes = hosted
  ? ["/", "/blog", "/blog/backend-article-1", "/blog/backend-article-7"]
  : ["/", "/blog", "/blog/how-to-start-zazen-at-home"];
const categories = ["performance", "accessibility", "best-practices", "seo"];

const imageHost = hosted ? await startFakeImageHost() : undefined;
const backend = imageHost ? await startFakeBackend({ imageBase: imageHost.url }) : undefined;
const hostedSettings = backend
  ? {
      BLOG_API_URL: backend.url,
      BLOG_API_TOKEN: FAKE_TOKEN,
      IMAGE_HOSTS: imageHost.host,
      IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), "lighthouse-images-")),
    }
  : {};
const server = spawn("node", ["build/server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...hostedSettings },
  stdio: "ignore",
});
for (let attempt = 0; ; attempt += 1) {
  try {
    if ((await fetch(`${origin}/`)).ok) break;
  } catch {
    if (attempt > 50) throw new Error("the site did not start");
  }
  await sleep(200);
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const audit = (url) =>
  lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories });
const failures = [];
try {
  // A fresh Chromium's first page load also pays for its own start-up (caches, font lookups). Lighthouse
  // clears the site's cache and storage before every run, so the runs below still load the site cold.
  await audit(`${origin}${routes[0]}`);
  // The dead link's first reader finds it dead (a hidden image, a 404 in the console); the runs
  // measure the pages rendered after that, as every later reader gets them.
  if (hosted) await audit(`${origin}/blog/backend-article-7`);
  console.log(`Lighthouse ${runs} run(s) per route after one warm-up run, mobile preset, median scores\n`);
  console.log("route".padEnd(36) + categories.map((name) => name.padStart(16)).join(""));
  for (const route of routes) {
    const scores = Object.fromEntries(categories.map((name) => [name, []]));
    const audits = new Set();
    const shifts = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await audit(`${origin}${route}`);
      // Missing when the run could not measure it (a trace error on a busy machine).
      const shift = result.lhr.audits["cumulative-layout-shift"].numericValue;
      if (Number.isFinite(shift)) shifts.push(shift);
      for (const name of categories) {
        const category = result.lhr.categories[name];
        scores[name].push(Math.round((category.score ?? 0) * 100));
        for (const ref of category.auditRefs) {
          const audit = result.lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1)
            audits.add(`${name}: ${ref.id} (${audit.displayValue ?? audit.score})`);
        }
      }
    }
    const row = categories.map((name) => median(scores[name]));
    console.log(
      route.padEnd(36) +
        row.map((score) => String(score).padStart(16)).join("") +
        `   CLS ${shifts.length ? Math.max(...shifts).toFixed(3) : "not measured"} (largest of ${shifts.length})`,
    );
    for (const audit of audits) console.log(`    below full marks in some run: ${audit}`);
    categories.forEach((name, index) => {
      if (row[index] < 100) failures.push(`${route} ${name} ${row[index]}`);
    });
  }
} finally {
  await chrome.kill();
  server.kill("SIGTERM");
  await Promise.all([backend?.close(), imageHost?.close()]);
}
console.log(failures.length ? `\nBelow 100: ${failures.join(", ")}` : "\nAll 100.");
