import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { documentPart } from "../support/document.mjs";

// The production build, with one route's loader replaced by one that fails unexpectedly: what a reader
// sees when something breaks that no one planned for.

let build: ServerBuild;

beforeAll(async () => {
  build = (await import(/* @vite-ignore */ path.resolve("build/index.js"))) as ServerBuild;
});

function buildWithFailingLoader(routeId: string, error: unknown): ServerBuild {
  const route = build.routes[routeId]!;
  return {
    ...build,
    routes: {
      ...build.routes,
      [routeId]: {
        ...route,
        module: {
          ...route.module,
          loader: () => {
            throw error;
          },
        },
      },
    },
  };
}

describe("an unexpected error", () => {
  it("gives a plain, friendly 500 page without the error's details", async () => {
    const secret = new Error("database password is hunter2");
    const handle = createRequestHandler(buildWithFailingLoader("routes/blog._index", secret), "production");
    const response = await handle(new Request("http://localhost/blog"));
    const served = await response.text();
    const html = documentPart(served);

    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Return to Home");
    expect(html).toContain('name="robots" content="noindex"');
    // Neither the message nor a stack trace reaches the page.
    expect(served).not.toContain("hunter2");
    expect(served).not.toMatch(/\n\s+at [\w.<>]+ \(/);
    expect(served).not.toContain("error-page.test");
    // The header and footer are still there, so the reader can go on.
    expect(html).toContain('aria-label="Main"');
    expect(html).toContain("Quick Links");
  });

  it("is not cached", async () => {
    const handle = createRequestHandler(buildWithFailingLoader("routes/_index", new Error("boom")), "production");
    const response = await handle(new Request("http://localhost/"));
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control") ?? "").not.toMatch(/max-age=[1-9]/);
  });
});
