// `npm run bench:images`: what a phone downloads with the hosted backend, whose image links point at
// pin-sized photos (736 x 1104 JPEG, ~160 KB) on a local stand-in image host. Loads /blog page 1 and
// an article in Chromium at 375 px, each with an empty browser cache, as they open and scrolled to the
// end (where lazy images load), and prints the bytes transferred (headers included), images apart.
// Also times the making of one copy per format with the site's settings (docs/decisions/025).
// Usage: node scripts/bench-images.mjs [--backend-latency 50] [--dpr 1,2]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import encoderSettings from "../app/images/encoder-settings.json" with { type: "json" };
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { makePin, PIN, startFakeImageHost } from "../tests/support/fake-image-host.mjs";
import { startSite } from "../tests/support/site-process.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
const { values } = parseArgs({
  options: { "backend-latency": { type: "string", default: "50" }, dpr: { type: "string", default: "1,2" } },
});
const densities = values.dpr.split(",").map(Number);

const host = await startFakeImageHost({ latencyMs: 20 });
const backend = await startFakeBackend({ imageBase: host.url, latencyMs: Number(values["backend-latency"]) });
const cacheDir = mkdtempSync(path.join(tmpdir(), "bench-images-"));
const site = await startSite({
  BLOG_API_URL: backend.url,
  BLOG_API_TOKEN: FAKE_TOKEN,
  IMAGE_HOSTS: host.host,
  IMAGE_CACHE_DIR: cacheDir,
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});

/** Loads `pagePath` in a fresh 375 px phone context; sums what the network delivered (CDP encodedDataLength). */
async function transferred(pagePath, deviceScaleFactor, { scroll = false } = {}) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const types = new Map();
  const totals = { all: 0, images: 0, requests: 0, foreign: 0 };
  cdp.on("Network.responseReceived", ({ requestId, type, response }) => {
    types.set(requestId, type);
    if (!response.url.startsWith(site.url) && !response.url.startsWith("data:")) totals.foreign += 1;
  });
  cdp.on("Network.loadingFinished", ({ requestId, encodedDataLength }) => {
    totals.all += encodedDataLength;
    totals.requests += 1;
    if (types.get(requestId) === "Image") totals.images += encodedDataLength;
  });
  await page.goto(`${site.url}${pagePath}`, { waitUntil: "networkidle" });
  if (scroll) {
    // As a reader scrolls: a screen at a time, so lazy images load as they come into view.
    for (let y = 0; y < (await page.evaluate(() => document.documentElement.scrollHeight)); y += 600) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(150);
    }
    await page.waitForLoadState("networkidle");
  }
  await context.close();
  return totals;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
try {
  const pages = [
    ["/blog page 1, as it opens", "/blog", false, 250],
    ["/blog page 1, scrolled to the end", "/blog", true, 250],
    ["article (/blog/backend-article-1), as it opens", "/blog/backend-article-1", false, 150],
    ["article, scrolled to the end", "/blog/backend-article-1", true, 150],
  ];
  // Once to make the copies (the first reader's cost is time, not bytes), then measured.
  for (const [, pagePath] of pages.filter(([, , scroll]) => scroll)) {
    for (const dpr of densities) await transferred(pagePath, dpr, { scroll: true });
  }
  console.log(`Bytes transferred, 375 px phone, empty browser cache (pin on the image host: ${kb(host.pinBytes)})\n`);
  console.log(
    "page".padEnd(48) +
      "DPR".padStart(4) +
      "total".padStart(10) +
      "images".padStart(10) +
      "requests".padStart(10) +
      "  other hosts",
  );
  for (const [label, pagePath, scroll, target] of pages) {
    for (const dpr of densities) {
      const result = await transferred(pagePath, dpr, { scroll });
      const verdict = result.all <= target * 1024 ? `within ${target} KB` : `OVER ${target} KB`;
      console.log(
        label.padEnd(48) +
          String(dpr).padStart(4) +
          kb(result.all).padStart(10) +
          kb(result.images).padStart(10) +
          String(result.requests).padStart(10) +
          `  ${result.foreign}   ${verdict}`,
      );
    }
  }

  // The cost of making one copy of a pin, per format, as the site makes it (app/images/make-variant.server.ts):
  // the time it takes, and the CPU it takes from the pages (all threads of this process).
  const pin = await makePin();
  console.log("\nMaking one copy of a pin (median of 5, sharp on one thread): wall time, CPU time, bytes");
  sharp.concurrency(1);
  for (const box of [
    { width: 160, height: 160 },
    { width: 480, height: 320 },
    { width: 800, height: 533 },
    { width: 1200, height: 800 },
  ]) {
    // Never enlarged: the 1200 px hero of a 736 px pin is 736 px wide.
    const scale = Math.min(1, PIN.width / box.width, PIN.height / box.height);
    const target = { width: Math.round(box.width * scale), height: Math.round(box.height * scale) };
    const cells = [];
    for (const format of ["avif", "webp", "jpeg"]) {
      const runs = [];
      let bytes = 0;
      for (let run = 0; run < 5; run += 1) {
        const start = performance.now();
        const cpu = process.cpuUsage();
        const resized = sharp(pin).resize({ ...target, fit: "cover" });
        const out = await resized[format](encoderSettings[format]).toBuffer();
        const used = process.cpuUsage(cpu);
        runs.push({ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 });
        bytes = out.length;
      }
      const median = (key) => runs.map((entry) => entry[key]).sort((a, b) => a - b)[2];
      cells.push(
        `${format} ${median("wall").toFixed(0)} ms ${median("cpu").toFixed(0)} ms ${(bytes / 1024).toFixed(1)} KB`,
      );
    }
    console.log(`  ${`${box.width}x${box.height}`.padEnd(9)} ${cells.map((cell) => cell.padEnd(28)).join("| ")}`);
  }
} finally {
  await browser.close();
  await Promise.all([site.stop(), backend.close(), host.close()]);
  rmSync(cacheDir, { recursive: true, force: true });
}
