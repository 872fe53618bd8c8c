// Runs nginx with the operator's configuration (docs/nginx.conf) on loopback, in a temporary directory:
// only the lines marked `# deploy: <name>` are changed (origins, listen address, cache, logs). For the
// proxy tests (tests/proxy) and the proxy benchmark (scripts/bench-proxy.mjs).
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./site-process.mjs";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const SITE_CONFIG = path.resolve("docs/nginx.conf");

export const nginxMissing = !existsSync(NGINX);
if (nginxMissing)
  console.warn(`Proxy tests skipped: nginx is not installed at ${NGINX} (apt-get install nginx-light).`);

/** @typedef {{ origins: string[], listen: string, cache: string, accessLog: string, errorLog: string }} Deployment */

/**
 * docs/nginx.conf with the values of one deployment on its `# deploy:` lines. Every kind of marked line
 * must be there, so that a changed file cannot make the tests run something else than it says.
 * @param {string} text
 * @param {Deployment} deployment
 * @returns {string}
 */
export function deploySiteConfig(text, deployment) {
  const seen = new Set();
  const lines = text.split("\n").flatMap((line) => {
    const marker = /^(\s*)(\S+)\s+(.*?);\s*# deploy: (\S+)\s*$/.exec(line);
    if (!marker) return [line];
    const [, indent, directive, value, name] = marker;
    const firstOfItsKind = !seen.has(name);
    seen.add(name);
    const set = (/** @type {string} */ newValue) => [`${indent}${directive} ${newValue}; # deploy: ${name}`];
    switch (name) {
      case "origin": {
        // The origin lines are replaced by one line per origin of this deployment, options kept.
        if (!firstOfItsKind) return [];
        const options = value.split(/\s+/).slice(1).join(" ");
        return deployment.origins.flatMap((origin) => set(`${origin} ${options}`.trim()));
      }
      case "listen":
        return set(deployment.listen);
      case "cache":
        return set(value.replace(/^\S+/, deployment.cache));
      case "access-log":
        return set(value.replace(/^\S+/, deployment.accessLog));
      case "error-log":
        return set(value.replace(/^\S+/, deployment.errorLog));
      default:
        throw new Error(`docs/nginx.conf: unknown deploy marker "${name}"`);
    }
  });
  for (const name of ["origin", "listen", "cache", "access-log", "error-log"])
    if (!seen.has(name)) throw new Error(`docs/nginx.conf: no line marked "# deploy: ${name}"`);
  return lines.join("\n");
}

/**
 * Starts nginx in front of the given origins (`127.0.0.1:port`). The main configuration around the site
 * file is what a distribution's /etc/nginx/nginx.conf holds: pid file, temporary paths, one worker.
 * @param {string[]} origins
 * @returns {Promise<{ url: string, siteConfig: string, accessLog: () => string, errorLog: () => string, stop: () => Promise<void> }>}
 */
export async function startNginx(origins) {
  const dir = mkdtempSync(path.join(tmpdir(), "site-nginx-"));
  // As root, nginx's workers run as nobody: they must reach the cache and temporary directories,
  // which the master creates inside this one.
  chmodSync(dir, 0o755);
  const port = await freePort();
  /** @type {Deployment} */
  const deployment = {
    origins,
    listen: `127.0.0.1:${port}`,
    cache: path.join(dir, "cache"),
    accessLog: path.join(dir, "access.log"),
    errorLog: path.join(dir, "error.log"),
  };
  const siteConfig = deploySiteConfig(readFileSync(SITE_CONFIG, "utf8"), deployment);
  writeFileSync(path.join(dir, "site.conf"), siteConfig);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `  ${kind}_temp_path ${path.join(dir, `temp-${kind}`)};`)
    .join("\n");
  writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${deployment.errorLog} warn;`,
      "worker_processes 1;",
      "events { worker_connections 1024; }",
      "http {",
      temp,
      `  include ${path.join(dir, "site.conf")};`,
      "}",
      "",
    ].join("\n"),
  );

  let output = "";
  const child = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const read = (/** @type {string} */ file) => (existsSync(file) ? readFileSync(file, "utf8") : "");
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output}${read(deployment.errorLog)}`);
    try {
      await fetch(`${url}/robots.txt`);
      break;
    } catch {
      if (attempt > 100) throw new Error(`nginx did not start: ${output}${read(deployment.errorLog)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    siteConfig,
    accessLog: () => read(deployment.accessLog),
    errorLog: () => read(deployment.errorLog),
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve(undefined);
        };
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
      }),
  };
}
