// `npm run screenshots:engines`: the home page, the blog, an article and the donation pop-up in Chromium,
// Firefox and WebKit, at 375 and 1280 px, light and dark, for a look by eye. Each engine's first screen goes
// to tests/.artifacts/screenshots/engines/<page>-<width>-<scheme>-<engine>.png, and the three side by side
// (Chromium, Firefox, WebKit from left to right) to <page>-<width>-<scheme>.png. Not part of npm test.
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { launch, type EngineName, type EnginePage } from "./support/engines";
import { waitForHydration } from "./support/page-checks";

const DIR = "tests/.artifacts/screenshots/engines";
const engines: EngineName[] = ["chromium", "firefox", "webkit"];
const widths = [375, 1280];
const schemes = ["light", "dark"] as const;
const GAP = 16;

const pages = () => [
  { name: "home", url: `${inject("demoUrl")}/` },
  { name: "blog", url: `${inject("demoUrl")}/blog` },
  { name: "article", url: `${inject("demoUrl")}/blog/a-day-at-sesshin` },
  { name: "donation", url: `${inject("configuredUrl")}/#donate` },
];

/** Fonts loaded, images decoded, animations (the pop-up's entrance) finished and the layout settled. */
const settled = `(async () => {
  await document.fonts.ready;
  await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  await Promise.all([...document.images].filter((image) => image.loading !== "lazy").map((image) => image.decode().catch(() => undefined)));
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return true;
})()`;

mkdirSync(DIR, { recursive: true });

describe.each(widths.flatMap((width) => schemes.map((scheme) => ({ width, scheme }))))(
  "$width px, $scheme",
  ({ width, scheme }) => {
    const opened = new Map<EngineName, EnginePage>();
    beforeAll(async () => {
      for (const engine of engines) {
        opened.set(
          engine,
          await launch(
            engine,
            { width, height: width < 800 ? 740 : 800, dark: scheme === "dark" },
            inject("webkitDriverUrl"),
          ),
        );
      }
    });
    afterAll(async () => {
      for (const page of opened.values()) await page.close();
    });

    test.each(pages().map((page) => page.name))("%s", async (name) => {
      const { url } = pages().find((page) => page.name === name)!;
      const files: string[] = [];
      for (const engine of engines) {
        const page = opened.get(engine)!;
        await page.goto(url);
        await waitForHydration(page);
        if (name === "donation") await page.waitFor("document.getElementById('donate').open", "the pop-up");
        await page.evaluate(settled);
        const file = `${DIR}/${name}-${width}-${scheme}-${engine}.png`;
        await page.screenshot(file);
        files.push(file);
      }
      const images = await Promise.all(files.map((file) => sharp(file).metadata()));
      const height = Math.max(...images.map((image) => image.height ?? 0));
      let left = 0;
      const placed = files.map((file, index) => {
        const at = { input: file, left, top: 0 };
        left += (images[index]!.width ?? 0) + GAP;
        return at;
      });
      await sharp({ create: { width: left - GAP, height, channels: 3, background: "#808080" } })
        .composite(placed)
        .png()
        .toFile(`${DIR}/${name}-${width}-${scheme}.png`);
      expect(
        images.every((image) => image.width === width),
        `every engine's screenshot is ${width} px wide`,
      ).toBe(true);
    });
  },
);
