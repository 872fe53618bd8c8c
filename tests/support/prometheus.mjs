// Runs Debian's Prometheus (`prometheus`, `promtool`) for the metrics tests: promtool on an exposition
// or on the rules in docs/prometheus/, and a Prometheus server on loopback with the operator's
// configuration (docs/prometheus/prometheus.yml), its targets and intervals set to the test's own.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { freePort } from "./site-process.mjs";

export const PROMETHEUS_DIR = path.resolve("docs/prometheus");

const installed = (command) => spawnSync(command, ["--version"], { stdio: "ignore" }).status === 0;
export const prometheusMissing = !installed("prometheus") || !installed("promtool");
if (prometheusMissing)
  console.warn("Prometheus tests skipped: prometheus and promtool are not installed (apt-get install prometheus).");

/**
 * promtool with the given arguments, and text on its standard input.
 * @param {string[]} args
 * @param {{ input?: string, cwd?: string }} [options]
 */
export function promtool(args, { input, cwd = PROMETHEUS_DIR } = {}) {
  const result = spawnSync("promtool", args, { input, cwd, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * Starts Prometheus scraping `targets` (host:port) every `intervalSeconds`, with the alerting rules of
 * docs/prometheus evaluated as often, its data in a temporary folder.
 * @param {{ targets: string[], intervalSeconds?: number }} options
 */
export async function startPrometheus({ targets, intervalSeconds = 1 }) {
  const dir = mkdtempSync(path.join(tmpdir(), "prometheus-"));
  const config = parse(readFileSync(path.join(PROMETHEUS_DIR, "prometheus.yml"), "utf8"));
  config.global = {
    ...config.global,
    scrape_interval: `${intervalSeconds}s`,
    evaluation_interval: `${intervalSeconds}s`,
  };
  config.rule_files = config.rule_files.map((file) => path.join(PROMETHEUS_DIR, file));
  config.scrape_configs[0].static_configs = [{ targets }];
  writeFileSync(path.join(dir, "prometheus.yml"), stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(
    "prometheus",
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${output}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      if (attempt > 150) {
        await stop();
        throw new Error(`prometheus did not start: ${output}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  /** @param {string} apiPath e.g. "/api/v1/query?query=up" */
  const api = async (apiPath) => {
    const reply = await fetch(`${url}${apiPath}`);
    const body = await reply.json();
    if (body.status !== "success") throw new Error(`${apiPath}: ${JSON.stringify(body)}`);
    return body.data;
  };
  return {
    url,
    output: () => output,
    api,
    /**
     * An instant query's samples as { labels, value }.
     * @param {string} expr
     * @returns {Promise<{ labels: Record<string, string>, value: number }[]>}
     */
    query: async (expr) =>
      (await api(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result.map((sample) => ({
        labels: sample.metric,
        value: Number(sample.value[1]),
      })),
    stop,
  };
}
