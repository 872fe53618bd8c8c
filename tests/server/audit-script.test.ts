import { spawn } from "node:child_process";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listenOnLoopback } from "../support/loopback.mjs";

// `npm run audit` (scripts/audit.mjs) against a registry on loopback: it must tell "advisories found",
// "none known" and "nothing was checked" apart, since the build machines' registry has no audit endpoint.

type Answer = { status: number; body?: unknown };
let registry: Awaited<ReturnType<typeof listenOnLoopback>> | undefined;
afterEach(async () => registry?.close());

async function startRegistry(bulk: Answer) {
  const asked: string[] = [];
  registry = await listenOnLoopback(
    http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      const answer =
        req.method === "POST" && req.url?.endsWith("/-/npm/v1/security/advisories/bulk")
          ? bulk
          : { status: 404, body: {} };
      res
        .writeHead(answer.status, { "content-type": "application/json" })
        .end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    }),
  );
  return asked;
}

function audit(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/audit.mjs", "--registry", `${registry!.url}/`], {
      env: { ...process.env, npm_config_cache: "/tmp/audit-test-cache" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("npm run audit", () => {
  it("lists an advisory on a runtime dependency and exits 1", async () => {
    const asked = await startRegistry({
      status: 200,
      body: {
        express: [
          {
            id: 1,
            url: "https://advisories.example.test/EXPRESS-1",
            title: "Test advisory in express",
            severity: "high",
            vulnerable_versions: "<99.0.0",
            cwe: [],
            cvss: { score: 7.5, vectorString: null },
          },
        ],
      },
    });
    const { code, output } = await audit();
    expect(asked.some((line) => line.startsWith("POST ") && line.includes("advisories/bulk"))).toBe(true);
    expect(output).toContain("Test advisory in express");
    expect(output).toMatch(/^high +express\b/m);
    expect(output).toMatch(/\d+ runtime packages? with a known advisory/);
    expect(code).toBe(1);
  }, 60_000);

  it("counts an advisory that SECURITY.md reviews as patched here as settled, and exits 0; one it does not list fails", async () => {
    const advisory = (id: string) => ({
      id: id === "GHSA-rxv8-25v2-qmq8" ? 2 : 3,
      url: `https://github.com/advisories/${id}`,
      title: `Advisory ${id}`,
      severity: "high",
      vulnerable_versions: "<3.0.0",
      cwe: [],
      cvss: { score: 7.5, vectorString: null },
    });
    await startRegistry({ status: 200, body: { "turbo-stream": [advisory("GHSA-rxv8-25v2-qmq8")] } });
    const settled = await audit();
    expect(settled.output).toMatch(/Advisory GHSA-rxv8-25v2-qmq8 \S+: reviewed, patched here/);
    expect(settled.output).toMatch(/each reviewed in SECURITY\.md/);
    expect(settled.code).toBe(0);
    await registry?.close();
    await startRegistry({
      status: 200,
      body: { "turbo-stream": [advisory("GHSA-rxv8-25v2-qmq8"), advisory("GHSA-0000-0000-0000")] },
    });
    const unknown = await audit();
    expect(unknown.output).toMatch(/Advisory GHSA-0000-0000-0000 \S+: NOT REVIEWED in SECURITY\.md/);
    expect(unknown.output).toMatch(/1 advisory open or not reviewed/);
    expect(unknown.code).toBe(1);
  }, 60_000);

  it("says so when none is known, and exits 0", async () => {
    await startRegistry({ status: 200, body: {} });
    const { code, output } = await audit();
    expect(output).toMatch(/no known advisory in the runtime dependencies/);
    expect(code).toBe(0);
  }, 60_000);

  it("says clearly that nothing was checked when the registry has no audit endpoint, and exits 2", async () => {
    await startRegistry({ status: 405 });
    const { code, output } = await audit();
    expect(output).toMatch(/did not answer its audit endpoint .*405/);
    expect(output).toMatch(/Nothing was checked/);
    expect(code).toBe(2);
  }, 60_000);
});
