// What every benchmark script shares: its options, a build, the fake backend and the site's processes, load
// runs by autocannon in a process of its own, and stopping all of it on the way out (also on Ctrl-C).
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { startFakeBackend } from "../tests/support/fake-backend.mjs";
import { startSite } from "../tests/support/site-process.mjs";

export const root = path.resolve(import.meta.dirname, "..");
const AUTOCANNON = path.join(root, "node_modules/autocannon/autocannon.js");

/**
 * The script's options. `spec` maps each option to its default and, for numbers, the least value allowed
 * (`{ duration: { default: 10, min: 1 } }`); string options have a `string` default (or none). A wrong
 * value prints the message and `usage`, and exits 2.
 */
export function benchOptions(spec, usage) {
  const options = Object.fromEntries(Object.keys(spec).map((name) => [name, { type: "string" }]));
  try {
    const { values } = parseArgs({ options });
    return Object.fromEntries(
      Object.entries(spec).map(([name, { default: fallback, min }]) => {
        const given = values[name];
        if (typeof fallback !== "number") return [camel(name), given ?? fallback];
        const value = given === undefined ? fallback : Number(given);
        if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
        return [camel(name), value];
      }),
    );
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\nUsage: ${usage}`);
    process.exit(2);
  }
}

const camel = (name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());

/** Builds the site if there is no build or the sources are newer (scripts/build-if-needed.mjs). */
export function ensureBuild() {
  const result = spawnSync(process.execPath, [path.join(root, "scripts/build-if-needed.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("the build failed");
  process.chdir(root); // startSite runs build/server.js from the working directory
}

/** The load average and a warning when other work keeps the cores busy: figures taken then are noisy. */
export function describeMachine() {
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.log(`Node ${process.version}, ${os.availableParallelism()} cores, load average before the run: ${load}`);
  if (os.loadavg()[0] >= os.availableParallelism())
    console.log("Warning: other work is keeping the cores busy; expect noisy figures.");
}

// --- Starting and stopping ----------------------------------------------------------------------------

/** What to stop at the end, on error and on Ctrl-C; newest first. */
const stoppers = [];
let signalsHandled = false;

/** Registers `stop` to run when the benchmark ends; returns what it was given. */
export function stopLater(stop) {
  stoppers.push(stop);
  if (!signalsHandled) {
    signalsHandled = true;
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.once(signal, async () => {
        console.error(`\n${signal}: stopping the servers`);
        await stopEverything();
        process.exit(130);
      });
    }
  }
}

export async function stopEverything() {
  while (stoppers.length) {
    try {
      await stoppers.pop()();
    } catch (error) {
      console.error(`While stopping: ${error instanceof Error ? error.message : error}`);
    }
  }
}

/** Runs `main`, stops everything however it ends, and exits with its status (1 on an error). */
export async function runBenchmark(main) {
  let status;
  try {
    status = await main();
  } catch (error) {
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.stack : error}`);
    status = 1;
  } finally {
    await stopEverything();
  }
  process.exit(status ?? 0);
}

/** The fake hosted backend (tests/support/fake-backend.mjs), stopped at the end. */
export async function backend(options) {
  const started = await startFakeBackend(options);
  stopLater(() => started.close());
  return started;
}

/** A production server of the site (build/server.js) with these settings, stopped at the end. */
export async function site(env) {
  const started = await startSite(env);
  stopLater(() => started.stop());
  return started;
}

/** A Node server script on a free loopback port, in the environment startSite gives the site. */
export async function serverScript(script, port, env = {}) {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  stopLater(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  });
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return { url, child };
    } catch {
      if (attempt > 100) throw new Error(`${script} did not start`);
    }
    await sleep(100);
  }
}

// --- Load -------------------------------------------------------------------------------------------------

/**
 * One autocannon run in a process of its own (so that the load generator and the server each have a core):
 * `url` for `duration` seconds at `connections`, with `headers` (`{ name: value }`), and at most `rate`
 * requests a second if given. Its figures.
 */
export function load({ url, connections, duration, headers = {}, rate = 0 }) {
  const args = [
    AUTOCANNON,
    "-j",
    "-c",
    String(connections),
    "-d",
    String(duration),
    ...(rate ? ["--overallRate", String(rate)] : []),
  ];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}=${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, url], { stdio: ["ignore", "pipe", "ignore"] });
    stopLater(() => child.kill("SIGKILL"));
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out);
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        requests: result.requests.total,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      });
    });
  });
}

/** A warm-up run (not counted), then the measured one. */
export async function warmAndLoad(target, { warmup, ...run }) {
  if (warmup > 0) await load({ ...target, ...run, duration: warmup });
  return load({ ...target, ...run });
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
