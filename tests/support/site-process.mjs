// Starts the production server (build/server.js, from server/) as a child process on a free loopback port, for tests and
// scripts that need the real thing. The build must exist (npm run build).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";

export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment a site process gets: only what is given, and where to listen. Each process starts with
 * a catalogue folder of its own (in the system's temporary folder) unless CATALOGUE_DIR is given, and
 * without the catalogue's background calls to a backend (CATALOGUE_SYNC=off), which would add to the calls
 * that tests count, unless CATALOGUE_SYNC=on is given.
 */
function siteEnv(port, env) {
  const base = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    CATALOGUE_SYNC: "off",
  };
  if (env.CATALOGUE_DIR) return { ...base, ...env };
  return { ...base, CATALOGUE_DIR: mkdtempSync(path.join(tmpdir(), "site-catalogue-")), ...env };
}

/** Removes the catalogue folder siteEnv made for a process (not one the caller gave) once it has exited. */
function removeOwnCatalogue(child, env, given) {
  if (given.CATALOGUE_DIR) return;
  child.once("exit", () => rmSync(env.CATALOGUE_DIR, { recursive: true, force: true }));
}

/** How long a site may take to answer /healthz after its process starts. */
const START_WITHIN_MS = 40_000;

/**
 * @param {Record<string, string>} env settings for the site
 * @returns {Promise<{ url: string, port: number, child: import("node:child_process").ChildProcess, output: () => string, stop: () => Promise<void> }>}
 */
export async function startSite(env = {}) {
  if (!existsSync("build/index.js")) throw new Error("No build: run `npm run build` first.");
  // A caller that must know the address before the site starts (a SITE_URL on loopback) gives its PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let output = "";
  const processEnv = siteEnv(port, env);
  const child = spawn(process.execPath, ["build/server.js"], {
    env: processEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  removeOwnCatalogue(child, processEnv, env);
  // Decoded as streams: a character split across two reads stays whole.
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // A deadline rather than a count of tries: seven sites starting at once beside another Node's run on two
  // cores took over ten seconds to answer on CI.
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`site exited: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (Date.now() - started > START_WITHIN_MS) {
        throw new Error(`site did not start within ${START_WITHIN_MS / 1000} s: ${output}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * Starts the server with settings it must refuse, and waits for it to stop.
 * @param {Record<string, string>} env settings for the site
 * @param {number} [timeoutMs] how long it may take to stop; a server still running then is killed and reported
 * @returns {Promise<{ code: number | null, output: string }>}
 */
export async function startSiteExpectingExit(env = {}, timeoutMs = 20_000) {
  if (!existsSync("build/index.js")) throw new Error("No build: run `npm run build` first.");
  const port = await freePort();
  let output = "";
  const processEnv = siteEnv(port, env);
  const child = spawn(process.execPath, ["build/server.js"], { env: processEnv, stdio: ["ignore", "pipe", "pipe"] });
  removeOwnCatalogue(child, processEnv, env);
  // Decoded as streams: a character split across two reads stays whole.
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise((resolve) => child.once("close", (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  if (code === null) throw new Error(`site did not stop within ${timeoutMs} ms: ${output}`);
  return { code, output };
}

/**
 * Waits until the output, from offset `from` on, matches `pattern`, and returns the match.
 * @param {() => string} output the output so far (a started site's `output`)
 * @param {RegExp} pattern
 * @param {{ from?: number, timeoutMs?: number }} [options]
 * @returns {Promise<RegExpExecArray>}
 */
export async function waitForOutput(output, pattern, { from = 0, timeoutMs = 10_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(output().slice(from));
    if (match) return match;
    if (Date.now() > deadline)
      throw new Error(`no output matching ${pattern} within ${timeoutMs} ms; output since: ${output().slice(from)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resident memory of a process in kB, from /proc (Linux): for the soak and the sites benchmark. */
export function rssKb(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}
