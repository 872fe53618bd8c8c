// The deployment the proxy tests run: the fake blog backend (with latency, like a hosted one), two
// origin processes of the production server, and nginx with docs/nginx.conf in front of them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeBackend } from "../../support/fake-backend.mjs";
import { configuredSite } from "../../support/servers.mjs";
import { startSite } from "../../support/site-process.mjs";
import { startNginx } from "../../support/nginx.mjs";

export type Origin = Awaited<ReturnType<typeof startSite>>;
export type Stack = {
  backend: Awaited<ReturnType<typeof startFakeBackend>>;
  origins: Origin[];
  nginx: Awaited<ReturnType<typeof startNginx>>;
  stop: () => Promise<void>;
};

/** Origin settings: the browser tests' configured site (every embed set), on this stack's backend. */
function originSettings(backendUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...configuredSite, BLOG_API_URL: backendUrl, ...extra };
}

export async function startStack(
  options: { latencyMs?: number; origin?: Record<string, string> } = {},
): Promise<Stack> {
  const backend = await startFakeBackend({ latencyMs: options.latencyMs ?? 50 });
  // The origins of one machine share the catalogues' folder, as in production (CATALOGUE_DIR).
  const catalogueDir = mkdtempSync(path.join(tmpdir(), "stack-catalogue-"));
  const settings = originSettings(backend.url, { CATALOGUE_DIR: catalogueDir, ...options.origin });
  const started = await Promise.allSettled([startSite(settings), startSite(settings)]);
  const origins = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  let nginx: Stack["nginx"];
  try {
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    nginx = await startNginx(origins.map((origin) => `127.0.0.1:${origin.port}`));
  } catch (error) {
    // Leave no process behind when the stack could not be started whole.
    await Promise.all(origins.map((origin) => origin.stop()));
    await backend.close();
    rmSync(catalogueDir, { recursive: true, force: true });
    throw error;
  }
  return {
    backend,
    origins,
    nginx,
    stop: async () => {
      await nginx.stop();
      await Promise.all(origins.map((origin) => origin.stop()));
      await backend.close();
      rmSync(catalogueDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a stack before the tests of the enclosing describe block and stops it after them. Returns the
 * running stack; if it could not start, every test that asks for it fails with the reason (a failing
 * beforeAll alone would leave the tests counted as skipped, not failed).
 */
export function useStack(options: Parameters<typeof startStack>[0] = {}): () => Stack {
  let stack: Stack | undefined;
  let startError: unknown;
  beforeAll(async () => {
    try {
      stack = await startStack(options);
    } catch (error) {
      startError = error;
    }
  }, 60_000);
  afterAll(() => stack?.stop());
  return () => {
    if (!stack) throw startError ?? new Error("the stack was not started");
    return stack;
  };
}

/** One request as an origin logged it. */
export type LoggedRequest = { method: string; url: string; status: number };

/**
 * The requests in an origin's request log (pino-http's JSON lines: `"req":"GET /blog","res":200`),
 * in the order they ended.
 */
export function loggedRequests(origin: Origin): LoggedRequest[] {
  return origin
    .output()
    .split("\n")
    .flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        const entry = JSON.parse(line) as { req?: unknown; res?: unknown };
        if (typeof entry.req !== "string" || typeof entry.res !== "number") return [];
        const [method = "", url = ""] = entry.req.split(" ");
        return [{ method, url, status: entry.res }];
      } catch {
        return [];
      }
    });
}
