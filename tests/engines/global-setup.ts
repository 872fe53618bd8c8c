// The servers the Firefox and WebKit tests share: a fake backend, the demo site (embedded articles) and the
// configured site (the backend, a donation address); and for WebKit a virtual display (Xvfb) and
// WebKitWebDriver. Started once for all the files; each file puts its own hook proxy in front of the sites
// (support/hook-proxy.mjs).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startFakeBackend } from "../support/fake-backend.mjs";
import { configuredSite } from "../support/servers.mjs";
import { freePort, startSite } from "../support/site-process.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    demoUrl: string;
    configuredUrl: string;
    webkitDriverUrl: string;
  }
}

/**
 * MiniBrowser's toolbar keeps its window at least 447 px wide unless GTK lets the header bar, the toolbar and
 * the address entry shrink: a phone's 375 px needs that.
 */
const GTK_CSS =
  "window, headerbar, toolbar, entry, box, button, toolbutton, image, label { min-width: 0; padding-left: 0; padding-right: 0; margin-left: 0; margin-right: 0; }\n";

async function waitForUrl(url: string, what: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${what} exited with status ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${what} did not start`);
}

/** A free X display number: the first without a lock file from :90 up. */
async function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  const { existsSync } = await import("node:fs");
  let number = 90;
  while (existsSync(`/tmp/.X${number}-lock`)) number += 1;
  const display = `:${number}`;
  const child = spawn("Xvfb", [display, "-screen", "0", "1600x1200x24", "-nolisten", "tcp"], { stdio: "ignore" });
  for (let attempt = 0; attempt < 50 && !existsSync(`/tmp/.X11-unix/X${number}`); attempt += 1) {
    if (child.exitCode !== null) throw new Error(`Xvfb exited with status ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { display, child };
}

export default async function setup(project: TestProject) {
  const stops: Array<() => Promise<unknown> | void> = [];
  const backend = await startFakeBackend({ port: await freePort() });
  stops.push(() => backend.close());
  const demo = await startSite();
  stops.push(() => demo.stop());
  const configured = await startSite({ ...configuredSite, BLOG_API_URL: backend.url });
  stops.push(() => configured.stop());

  const home = mkdtempSync(path.join(tmpdir(), "webkit-home-"));
  mkdirSync(path.join(home, ".config/gtk-3.0"), { recursive: true });
  writeFileSync(path.join(home, ".config/gtk-3.0/gtk.css"), GTK_CSS);
  const xvfb = await startXvfb();
  stops.push(() => void xvfb.child.kill());
  const driverPort = await freePort();
  const driver = spawn("WebKitWebDriver", [`--port=${driverPort}`, "--host=local"], {
    env: { ...process.env, DISPLAY: xvfb.display, HOME: home },
    stdio: "ignore",
  });
  stops.push(
    () => void driver.kill(),
    () => rmSync(home, { recursive: true, force: true }),
  );
  const webkitDriverUrl = `http://localhost:${driverPort}`;
  await waitForUrl(`${webkitDriverUrl}/status`, "WebKitWebDriver", driver);

  project.provide("demoUrl", demo.url);
  project.provide("configuredUrl", configured.url);
  project.provide("webkitDriverUrl", webkitDriverUrl);
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
