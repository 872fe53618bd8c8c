import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, makeArticles, startFakeBackend } from "../support/fake-backend.mjs";

const root = path.resolve(import.meta.dirname, "../..");
// Inside the project, where its packages resolve (node_modules/.cache: neither committed nor linted).
const bundle = path.join(root, "node_modules/.cache/statement-gc/statement-gc.mjs");
const ARTICLES = 30;

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
beforeAll(async () => {
  backend = await startFakeBackend({ content: makeArticles(ARTICLES) });
  await build({
    entryPoints: [path.join(root, "tests/support/statement-gc.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    alias: { "~": path.join(root, "app") },
    outfile: bundle,
    logLevel: "warning",
  });
});
afterAll(() => backend?.close());

describe("the catalogue under forced garbage collection (docs/decisions/038, 042)", () => {
  it(
    "survives statements made and dropped while the collector runs inside and outside JavaScript",
    { timeout: 60_000 },
    async () => {
      // Its own process: an abort (SIGABRT, no JavaScript stack) is then a signal here, not a lost worker. A young
      // generation of 1 MB makes V8 collect it in its own task (outside JavaScript) every round, not only by luck.
      const outcome = await promisify(execFile)(
        process.execPath,
        ["--expose-gc", "--max-semi-space-size=1", bundle, backend.url, FAKE_TOKEN, String(ARTICLES), "12"],
        {
          encoding: "utf8",
          timeout: 50_000,
        },
      ).then(
        ({ stdout, stderr }) => ({ code: 0, signal: null, stdout, stderr }),
        (error: { code?: number; signal?: string; stdout?: string; stderr?: string }) => ({
          code: error.code,
          signal: error.signal,
          stdout: error.stdout,
          stderr: error.stderr,
        }),
      );
      expect({ code: outcome.code, signal: outcome.signal, stderr: outcome.stderr?.slice(-2000) }).toEqual({
        code: 0,
        signal: null,
        stderr: "",
      });
      expect(outcome.stdout).toMatch(/^ok 12 rounds, \d+ searches$/m);
    },
  );
});
