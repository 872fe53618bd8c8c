// `npm run bench:images`: what a phone downloads with the hosted backend, whose image links point at
// pin-sized photos (736 x 1104 JPEG, ~160 KB) on a local stand-in image host. Loads /blog page 1
// scrolled to the end and an article in Chromium at 375 px, each with an empty browser cache, and
// prints the bytes transferred (headers included), images apart. Also times the making of one copy per
// format, AVIF included, which the site does not serve (docs/decisions/015).
// Usage: node scripts/bench-images.mjs [--backend-latency 50] [--dpr 1,2]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { FAKE_TOKEN, startFakeBackend } from "../tests/support/fake-backend.mjs";
import { makePin, startFakeImageHost } from "../tests/support/fake-image-host.mjs";
import { startSite } from "../tests/support/site-process.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
const { values } = parseArgs({ options: { "backend-latency": { type: "string", default: "50" }, dpr: { type: "string", default: "1,2" } } });
const densities = values.dpr.split(",").map(Number);

const host = await startFakeImageHost({ latencyMs: 20 });
const backend = await startFakeBackend({ imageBase: host.url, latencyMs: Number(values["backend-latency"]) });
const cacheDir = mkdtempSync(path.join(tmpdir(), "bench-images-"));
const site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN, IMAGE_HOSTS: host.host, IMAGE_CACHE_DIR: cacheDir });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

/** Loads `pagePath` in a fresh 375 px phone context; sums what the network delivered (CDP encodedDataLength). */
async function transferred(pagePath, deviceScaleFactor, { scroll = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor });
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
  // Once to make the copies (the first reader's cost is time, not bytes), then measured.
  for (const dpr of densities) await transferred("/blog", dpr, { scroll: true });
  await transferred("/blog/backend-article-1", densities[0]);
  console.log(`Bytes transferred, 375 px phone, empty browser cache (pin on the image host: ${kb(host.pinBytes)})\n`);
  console.log("page".padEnd(44) + "DPR".padStart(4) + "total".padStart(10) + "images".padStart(10) + "requests".padStart(10) + "  other hosts");
  for (const [label, pagePath, scroll, target] of [
    ["/blog page 1, scrolled to the end", "/blog", true, 250],
    ["article (/blog/backend-article-1)", "/blog/backend-article-1", false, 150],
  ]) {
    for (const dpr of densities) {
      const result = await transferred(pagePath, dpr, { scroll });
      const verdict = result.all <= target * 1024 ? `within ${target} KB` : `OVER ${target} KB`;
      console.log(
        label.padEnd(44) + String(dpr).padStart(4) + kb(result.all).padStart(10) + kb(result.images).padStart(10) + String(result.requests).padStart(10) + `  ${result.foreign}   ${verdict}`,
      );
    }
  }

  // The cost of making one copy of a pin, per format: why AVIF is not served.
  const pin = await makePin();
  console.log("\nMaking one copy of a pin (median of 5, one thread)");
  sharp.concurrency(1);
  for (const box of [{ width: 160, height: 160 }, { width: 800, height: 533 }]) {
    const cells = [];
    for (const format of ["jpeg", "webp", "avif"]) {
      const times = [];
      let bytes = 0;
      for (let run = 0; run < 5; run += 1) {
        const start = performance.now();
        const image = sharp(pin).resize({ ...box, fit: "cover" });
        const out = await (format === "jpeg" ? image.jpeg({ quality: 72, mozjpeg: true }) : format === "webp" ? image.webp({ quality: 68 }) : image.avif({ quality: 50 })).toBuffer();
        times.push(performance.now() - start);
        bytes = out.length;
      }
      times.sort((a, b) => a - b);
      cells.push(`${format} ${times[2].toFixed(0)} ms ${(bytes / 1024).toFixed(1)} KB`);
    }
    console.log(`  ${box.width}x${box.height}: ${cells.join(" | ")}`);
  }
} finally {
  await browser.close();
  await Promise.all([site.stop(), backend.close(), host.close()]);
  rmSync(cacheDir, { recursive: true, force: true });
}
