// Full-page screenshots of a running site at phone, tablet and desktop widths, for a look by eye.
// Usage: node scripts/screenshots.mjs [baseUrl] [path ...]   (writes to tests/.artifacts/screenshots)
import { mkdirSync } from "node:fs";
import { chromium } from "@playwright/test";

const [base = "http://127.0.0.1:3000", ...paths] = process.argv.slice(2);
const outDir = "tests/.artifacts/screenshots";
mkdirSync(outDir, { recursive: true });
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
for (const width of [375, 768, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  for (const path of paths.length ? paths : ["/"]) {
    await page.goto(base + path);
    const name = `${outDir}/${path.replace(/[^a-z0-9]+/gi, "_") || "home"}-${width}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(name);
  }
  await page.close();
}
await browser.close();
