// Debian's Firefox ESR (Puppeteer over WebDriver BiDi) and WebKitGTK's MiniBrowser (WebKitWebDriver under
// Xvfb, see tests/engines/global-setup.ts) behind one small interface, for the tests of what can differ
// between engines. In-page code is passed as source text (an expression), so that the test transform cannot
// add helpers to it that the page lacks.
import { writeFile } from "node:fs/promises";
import puppeteer, { type Browser as PuppeteerBrowser, type Page } from "puppeteer-core";
import { Builder, By, Key, type WebDriver } from "selenium-webdriver";
import { CONSOLE_KEY } from "./hook-proxy.mjs";

/** Chromium is here for the side-by-side screenshots only: its tests are Playwright's (tests/e2e). */
export type EngineName = "firefox" | "webkit" | "chromium";
export const engineNames: EngineName[] = ["firefox", "webkit"];

/** asReader (Chromium): a reader's Chrome, not the headless browser its user agent and client hints name. */
export type LaunchOptions = {
  width: number;
  height?: number;
  dark?: boolean;
  javaScript?: boolean;
  asReader?: boolean;
};

const READER_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export interface EnginePage {
  readonly engine: EngineName;
  goto(url: string): Promise<void>;
  /** The value of a JavaScript expression in the page (awaited if it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
  /** Polls an expression until it is truthy. */
  waitFor(expression: string, message: string, timeoutMs?: number): Promise<void>;
  /** A real pointer click on the first element matching the selector. */
  click(selector: string): Promise<void>;
  /** Whether the first element matching the selector is shown, as the driver sees it (works without JavaScript). */
  isDisplayed(selector: string): Promise<boolean>;
  pressEscape(): Promise<void>;
  /** Gives the page a viewport of this size (in WebKit this leaves the page for about:blank). */
  resize(width: number, height: number): Promise<void>;
  back(): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  /** What the viewport shows, as a PNG. */
  screenshot(file: string): Promise<void>;
  /** Console errors and warnings, uncaught errors and rejections the pages of this tab logged since the last clearConsole. */
  consoleProblems(): Promise<string[]>;
  /** Forgets the problems recorded so far (needs a page of the site open). */
  clearConsole(): Promise<void>;
  close(): Promise<void>;
}

const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const DEFAULT_HEIGHT = 800;

const clearProblems = `(sessionStorage.removeItem(${JSON.stringify(CONSOLE_KEY)}), true)`;
const readProblems = `JSON.parse(sessionStorage.getItem(${JSON.stringify(CONSOLE_KEY)}) || "[]")`;

async function poll(check: () => Promise<unknown>, message: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error; // a page being replaced answers with an error for a moment
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${message}${last ? ` (last error: ${String(last)})` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function launch(engine: EngineName, options: LaunchOptions, webkitDriverUrl: string): Promise<EnginePage> {
  return engine === "webkit" ? launchWebKit(options, webkitDriverUrl) : launchPuppeteer(engine, options);
}

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

async function launchPuppeteer(
  engine: "firefox" | "chromium",
  { width, height = DEFAULT_HEIGHT, dark = false, javaScript = true, asReader = false }: LaunchOptions,
): Promise<EnginePage> {
  const browser: PuppeteerBrowser =
    engine === "firefox"
      ? await puppeteer.launch({
          browser: "firefox",
          executablePath: FIREFOX,
          headless: true,
          defaultViewport: { width, height },
          extraPrefsFirefox: {
            // Overlay scrollbars, as on phones and macOS: a classic scrollbar would take 12 px of a 375 px viewport.
            "ui.useOverlayScrollbars": 1,
            // 0 dark, 1 light.
            "layout.css.prefers-color-scheme.content-override": dark ? 0 : 1,
            "javascript.enabled": javaScript,
          },
        })
      : await puppeteer.launch({
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          headless: true,
          // For the whole browser: a beacon sent as a page is left goes with the browser's own user agent.
          args: [...CHROMIUM_ARGS, ...(asReader ? [`--user-agent=${READER_CHROME}`] : [])],
        });
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.setViewport({ width, height });
  if (engine === "chromium") {
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: dark ? "dark" : "light" }]);
    await page.setJavaScriptEnabled(javaScript);
    if (asReader) {
      await page.setUserAgent({
        userAgent: READER_CHROME,
        userAgentMetadata: {
          brands: [
            { brand: "Chromium", version: "156" },
            { brand: "Not:A-Brand", version: "8" },
          ],
          platform: "Linux",
          platformVersion: "",
          architecture: "x86",
          model: "",
          mobile: false,
        },
      });
    }
  }
  // What the engine itself reports (a blocked script, a failed module), besides what the page's hook records.
  const engineLog: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warn")
      engineLog.push(`${message.type()}: ${message.text()} (console)`);
  });
  page.on("pageerror", (error) => engineLog.push(`uncaught: ${String(error)} (pageerror)`));
  const evaluate = async <T>(expression: string) => (await page.evaluate(expression)) as T;
  return {
    engine,
    goto: async (url) => {
      await page.goto(url, { waitUntil: "load" });
    },
    evaluate,
    waitFor: (expression, message, timeoutMs = 10_000) => poll(() => evaluate(expression), message, timeoutMs),
    click: async (selector) => {
      // Not page.click: with JavaScript off it waits for an animation frame that never comes.
      const element = await page.$(selector);
      if (!element) throw new Error(`no element matches ${selector}`);
      // The site's scroll restoration may move the page just after a navigation (Back): click where the
      // element has stayed for a while.
      let box = null;
      for (let attempt = 0; attempt < 20; attempt += 1) {
        await element.scrollIntoView();
        box = await element.boundingBox();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const again = await element.boundingBox();
        if (box && again && box.y === again.y) break;
      }
      if (!box) throw new Error(`${selector} is not shown`);
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    },
    isDisplayed: async (selector) => {
      const element = await page.$(selector);
      return element ? await element.isVisible() : false;
    },
    pressEscape: () => page.keyboard.press("Escape"),
    resize: (width, height) => page.setViewport({ width, height }),
    back: async () => {
      await page.goBack();
    },
    reload: async () => {
      await page.reload({ waitUntil: "load" });
    },
    url: async () => page.url(),
    screenshot: async (file) => {
      await page.screenshot({ path: file as `${string}.png` });
    },
    consoleProblems: async () => [...(javaScript ? await evaluate<string[]>(readProblems) : []), ...engineLog],
    clearConsole: async () => {
      engineLog.length = 0;
      if (javaScript) await evaluate(clearProblems);
    },
    close: () => browser.close(),
  };
}

async function launchWebKit(
  { width, height = DEFAULT_HEIGHT, dark = false, javaScript = true }: LaunchOptions,
  driverUrl: string,
): Promise<EnginePage> {
  const args = ["--automation", ...(dark ? ["--dark-mode"] : []), ...(javaScript ? [] : ["--enable-javascript=false"])];
  const driver: WebDriver = await new Builder()
    .usingServer(driverUrl)
    .withCapabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": { binary: MINIBROWSER, args } })
    .build();
  await setViewport(driver, width, height);
  const evaluate = async <T>(expression: string) => (await driver.executeScript(`return (${expression});`)) as T;
  return {
    engine: "webkit",
    goto: (url) => driver.get(url),
    evaluate,
    waitFor: (expression, message, timeoutMs = 10_000) => poll(() => evaluate(expression), message, timeoutMs),
    click: async (selector) => {
      const element = await driver.findElement(By.css(selector));
      // WebKitWebDriver does not scroll an element below the fold into view before clicking it, and the
      // site's scroll restoration may move the page just after a navigation (Back): scroll until the element
      // has stayed in the same place in view for a while.
      for (let attempt = 0; javaScript && attempt < 20; attempt += 1) {
        const still = await driver.executeScript(
          `const element = arguments[0];
          element.scrollIntoView({ block: "center" });
          const at = () => { const r = element.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight ? r.top : NaN; };
          const first = at();
          return new Promise((resolve) => setTimeout(() => resolve(at() === first), 200));`,
          element,
        );
        if (still) break;
      }
      try {
        await element.click();
      } catch (error) {
        const where = javaScript
          ? await driver.executeScript(
              "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height, scrollY, innerWidth, innerHeight];",
              element,
            )
          : [];
        throw new Error(`click on ${selector} at ${JSON.stringify(where)}: ${String(error)}`);
      }
    },
    isDisplayed: async (selector) => {
      const found = await driver.findElements(By.css(selector));
      return found[0] ? await found[0].isDisplayed() : false;
    },
    pressEscape: () => driver.actions().sendKeys(Key.ESCAPE).perform(),
    resize: (width, height) => setViewport(driver, width, height),
    back: () => driver.navigate().back(),
    reload: () => driver.navigate().refresh(),
    url: () => driver.getCurrentUrl(),
    screenshot: async (file) => writeFile(file, Buffer.from(await driver.takeScreenshot(), "base64")),
    consoleProblems: async () => (javaScript ? await evaluate<string[]>(readProblems) : []),
    clearConsole: async () => {
      if (javaScript) await evaluate(clearProblems);
    },
    close: () => driver.quit(),
  };
}

/**
 * Sizes the window so that the page gets the given viewport: what the toolbar and borders take is measured,
 * then added, until the page's size is right.
 */
async function setViewport(driver: WebDriver, width: number, height: number) {
  await driver.get("about:blank");
  const inner = async () =>
    (await driver.executeScript("return [window.innerWidth, window.innerHeight];")) as [number, number];
  let rect = { width, height };
  for (let attempt = 0; attempt < 6; attempt += 1) {
    await driver.manage().window().setRect(rect);
    // The window manager applies the size a moment later on a busy machine: wait until the page's size holds.
    let [innerWidth, innerHeight] = await inner();
    for (let settle = 0; settle < 10; settle += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [nextWidth, nextHeight] = await inner();
      if (nextWidth === innerWidth && nextHeight === innerHeight) break;
      [innerWidth, innerHeight] = [nextWidth, nextHeight];
    }
    if (innerWidth === width && innerHeight === height) {
      // Otherwise the driver keeps the old size for its checks of where an element is (clicks then fail).
      await driver.navigate().refresh();
      return;
    }
    const actual = await driver.manage().window().getRect();
    rect = { width: actual.width + width - innerWidth, height: actual.height + height - innerHeight };
  }
  throw new Error(`WebKit would not give the page a ${width} × ${height} viewport`);
}
