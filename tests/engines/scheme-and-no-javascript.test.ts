// The dark scheme (the reader's system setting, in CSS alone) and the reader without JavaScript (the phone
// menu and the Donate panel as the address's #fragment target), in Firefox and WebKit.
import { afterEach, describe, expect, inject, test } from "vitest";
import { engineNames, launch, type EnginePage } from "./support/engines";
import { waitForHydration } from "./support/page-checks";

/**
 * Relative luminance (0 black, 1 white) of the background seen behind an element: its own, or the nearest
 * ancestor's that is not transparent, read back through a canvas.
 */
const luminanceOf = (selector: string) => `(() => {
  let element = document.querySelector(${JSON.stringify(selector)});
  const transparent = (color) => color === "transparent" || color.split(" ").join("") === "rgba(0,0,0,0)";
  while (element.parentElement && transparent(getComputedStyle(element).backgroundColor)) element = element.parentElement;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.fillStyle = "#fff";
  context.fillRect(0, 0, 1, 1);
  context.fillStyle = getComputedStyle(element).backgroundColor;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  const channel = (value) => { const c = value / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
})()`;

describe.each(engineNames)("%s", (engine) => {
  let page: EnginePage | undefined;
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });

  test("a reader whose system is dark gets the dark scheme, the pop-up included", async () => {
    page = await launch(engine, { width: 1280, dark: true }, inject("webkitDriverUrl"));
    await page.goto(`${inject("configuredUrl")}/#donate`);
    await waitForHydration(page);
    expect(await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")).toBe(true);
    expect(await page.evaluate<number>(luminanceOf("body")), "a dark page").toBeLessThan(0.05);
    await page.waitFor("document.getElementById('donate').open", "the pop-up");
    expect(await page.evaluate<number>(luminanceOf("#donate > div")), "a dark pop-up").toBeLessThan(0.05);
  });

  test("without JavaScript the phone menu and the Donate panel open and close by their links", async () => {
    page = await launch(engine, { width: 375, height: 740, javaScript: false }, inject("webkitDriverUrl"));
    const site = inject("configuredUrl");
    await page.goto(`${site}/`);
    expect(await page.isDisplayed("#mobile-menu"), "menu closed at first").toBe(false);
    await page.click('a[href="#mobile-menu"]');
    expect(await page.url()).toBe(`${site}/#mobile-menu`);
    expect(await page.isDisplayed("#mobile-menu"), "menu open").toBe(true);
    await page.click('header a[href="#close"]');
    expect(await page.isDisplayed("#mobile-menu"), "menu closed again").toBe(false);

    expect(await page.isDisplayed("#donate"), "no panel at first").toBe(false);
    await page.click('a[href="#mobile-menu"]');
    await page.click('#mobile-menu a[href="#donate"]');
    expect(await page.isDisplayed("#donate"), "the Donate panel").toBe(true);
    expect(await page.isDisplayed("#donate a[href='https://donate.example.test/give']"), "its Donate Now link").toBe(
      true,
    );
    await page.click('#donate a[href="#close"]:not([aria-hidden])');
    expect(await page.isDisplayed("#donate"), "Maybe Later hides it").toBe(false);
  });
});
