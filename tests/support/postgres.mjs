// Runs a throwaway PostgreSQL from Debian's packages (`postgresql`) for the tests and benchmarks: a data
// directory in the system's temporary folder, a free loopback port, no fsync; stopped and removed after.
// initdb refuses to run as root: as root, the directory belongs to `postgres` and the tools run as that user.
import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./site-process.mjs";

const run = promisify(execFile);

/** The newest PostgreSQL under /usr/lib/postgresql (or PG_BIN). */
function findBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

export const PG_BIN = findBin();
export const postgresMissing = PG_BIN === undefined;
if (postgresMissing)
  console.warn("PostgreSQL tests skipped: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql).");

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL tool, as `postgres` when we are root. */
async function tool(name, args) {
  const bin = path.join(/** @type {string} */ (PG_BIN), name);
  return asRoot ? run("runuser", ["-u", "postgres", "--", bin, ...args]) : run(bin, args);
}

/**
 * Starts a server; `url` reaches its `postgres` database as the superuser `postgres` (trust on loopback).
 * `stopServer`/`startServer` take it away and bring it back on the same port (outage tests).
 * @returns {Promise<{ url: string, port: number, urlOf: (database: string) => string, createDatabase: (name: string) => Promise<string>, stopServer: () => Promise<void>, startServer: () => Promise<void>, stop: () => Promise<void> }>}
 */
export async function startPostgres() {
  if (!PG_BIN) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const dir = mkdtempSync(path.join(tmpdir(), "site-postgres-"));
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, "data");
  await tool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const startServer = async () => {
    await tool("pg_ctl", ["-D", data, "-w", "-l", path.join(dir, "log"), "-o", options, "start"]);
  };
  const stopServer = async () => {
    await tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  };
  await startServer();
  const urlOf = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url: urlOf("postgres"),
    port,
    urlOf,
    async createDatabase(name) {
      await tool("psql", [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-q",
        "-c",
        `CREATE DATABASE "${name}"`,
      ]);
      return urlOf(name);
    },
    stopServer,
    startServer,
    async stop() {
      if (stopped) return;
      stopped = true;
      await tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
