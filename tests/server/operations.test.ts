import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// What an operator and a load balancer meet: the health check, old clients' /favicon.ico, the request log
// and a stop with SIGTERM while readers are being answered.

let backend: Awaited<ReturnType<typeof startFakeBackend>>;

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 30, latencyMs: 1500 });
}, 30_000);

afterAll(async () => {
  await backend?.close();
});

const hosted = { BLOG_API_URL: "", BLOG_API_TOKEN: FAKE_TOKEN, PAGE_CACHE_SECONDS: "0" };

describe("for load balancers and old clients", () => {
  it("GET /healthz answers 200 at once, from any host, without the backend, the log or a cache", async () => {
    const site = await startSite({ ...hosted, BLOG_API_URL: backend.url, ALLOWED_HOSTS: "zen.example.org" });
    try {
      const before = backend.calls().length;
      const response = await fetch(`${site.url}/healthz`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(backend.calls().length).toBe(before);
      // A page for comparison: it is logged, and the log is flushed by then.
      await fetch(`${site.url}/robots.txt`, { headers: { Host: "zen.example.org" } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(site.output()).toContain("GET /robots.txt");
      expect(site.output()).not.toContain("/healthz");
    } finally {
      await site.stop();
    }
  }, 30_000);

  it("/favicon.ico leads to the site's icon instead of a 404", async () => {
    const site = await startSite();
    try {
      const response = await fetch(`${site.url}/favicon.ico`, { redirect: "manual" });
      expect(response.status).toBe(301);
      expect(response.headers.get("location")).toBe("/favicon.svg");
      const icon = await fetch(`${site.url}/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    } finally {
      await site.stop();
    }
  }, 30_000);
});

describe("SIGTERM", () => {
  it("refuses new connections, answers every request in flight, then exits cleanly", async () => {
    const site = await startSite({ ...hosted, BLOG_API_URL: backend.url });
    const agent = new http.Agent({ keepAlive: true });
    // Each needs a backend call of 1.5 s: the signal comes once all of them are waiting on theirs.
    const before = backend.calls().length;
    const inFlight = Array.from({ length: 20 }, (_, index) =>
      status(site.port, `/blog/backend-article-${index + 1}`, agent),
    );
    await expect
      .poll(() => backend.calls().length - before, { interval: 10, timeout: 10_000 })
      .toBeGreaterThanOrEqual(20);
    const exited = new Promise<number | null>((resolve) => site.child.once("exit", (code) => resolve(code)));
    site.child.kill("SIGTERM");
    // A new connection is refused, not accepted and reset, so a proxy tries another origin at once.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(status(site.port, "/healthz", new http.Agent())).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await Promise.all(inFlight)).toEqual(Array(20).fill(200));
    expect(await exited).toBe(0);
    agent.destroy();
  }, 30_000);
});

function status(port: number, path: string, agent: http.Agent) {
  return new Promise<number>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      })
      .on("error", reject);
  });
}
