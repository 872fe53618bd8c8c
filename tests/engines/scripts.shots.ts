// `npm run screenshots:engines -- tests/engines/scripts.shots.ts`: the nine languages of issue 42 (home,
// the article of long runs, search results) in Chromium, Firefox and WebKit at 375 px, light and dark, for
// a look by eye. Chromium and Firefox see no system font for Burmese, Sinhala, Khmer, Lao or Tibetan (the
// site's own fonts are used), WebKit the machine's. Each engine's first screen goes to
// tests/.artifacts/screenshots/scripts/<lang>-<page>-<scheme>-<engine>.png, the three side by side (Chromium,
// Firefox, WebKit) to <lang>-<page>-<scheme>.png, and the font files each page fetched, with their bytes, to
// fonts.json. Not part of npm test.
import { mkdirSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { launch, type EngineName, type EnginePage } from "./support/engines";
import { startHookProxy } from "./support/hook-proxy.mjs";
import { waitForHydration } from "./support/page-checks";
import {
  launchWithoutScriptFonts,
  LONG_ARTICLE,
  scriptSites,
  searchWord,
  startScriptSites,
} from "./support/script-sites";

const DIR = "tests/.artifacts/screenshots/scripts";
const engines: EngineName[] = ["chromium", "firefox", "webkit"];
const GAP = 16;

const settled = `(async () => {
  await document.fonts.ready;
  await Promise.all([...document.images].filter((image) => image.loading !== "lazy").map((image) => image.decode().catch(() => undefined)));
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return true;
})()`;
const fontsFetched = `performance.getEntriesByType("resource").filter((entry) => /\\.woff2?$/.test(entry.name)).map((entry) => ({ file: entry.name.split("/").pop(), bytes: entry.encodedBodySize }))`;

mkdirSync(DIR, { recursive: true });
const measured: unknown[] = [];

describe.each(["light", "dark"] as const)("%s", (scheme) => {
  let sites: Awaited<ReturnType<typeof startScriptSites>>;
  const proxies = new Map<string, Awaited<ReturnType<typeof startHookProxy>>>();
  const opened = new Map<EngineName, EnginePage>();
  beforeAll(async () => {
    sites = await startScriptSites();
    for (const site of scriptSites) proxies.set(site.lang, await startHookProxy(sites.url, { host: site.host }));
    for (const engine of engines) {
      const start = () =>
        launch(engine, { width: 375, height: 740, dark: scheme === "dark" }, inject("webkitDriverUrl"));
      opened.set(engine, await launchWithoutScriptFonts(engine !== "webkit", start));
    }
  });
  afterAll(async () => {
    for (const page of opened.values()) await page.close();
    for (const proxy of proxies.values()) await proxy.stop();
    await sites?.stop();
    writeFileSync(`${DIR}/fonts.json`, JSON.stringify(measured, null, 1));
  });

  test.each(scriptSites.map((site) => site.lang))("%s", async (lang) => {
    const site = scriptSites.find((found) => found.lang === lang)!;
    const pages = {
      home: "/",
      article: `/blog/${LONG_ARTICLE}`,
      search: `/search?q=${encodeURIComponent(searchWord(site))}`,
    };
    for (const [name, path] of Object.entries(pages)) {
      const files: string[] = [];
      for (const engine of engines) {
        const page = opened.get(engine)!;
        await page.goto(proxies.get(lang)!.url + path);
        await waitForHydration(page);
        await page.evaluate(settled);
        measured.push({ engine, scheme, lang, page: name, fonts: await page.evaluate(fontsFetched) });
        const file = `${DIR}/${lang}-${name}-${scheme}-${engine}.png`;
        await page.screenshot(file);
        files.push(file);
      }
      const images = await Promise.all(files.map((file) => sharp(file).metadata()));
      let left = 0;
      const placed = files.map((file, index) => {
        const at = { input: file, left, top: 0 };
        left += (images[index]!.width ?? 0) + GAP;
        return at;
      });
      const height = Math.max(...images.map((image) => image.height ?? 0));
      await sharp({ create: { width: left - GAP, height, channels: 3, background: "#808080" } })
        .composite(placed)
        .png()
        .toFile(`${DIR}/${lang}-${name}-${scheme}.png`);
      expect(
        images.every((image) => image.width === 375),
        "every engine's screenshot is 375 px wide",
      ).toBe(true);
    }
  });
});
