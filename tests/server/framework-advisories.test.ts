import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ServerBuild } from "@remix-run/server-runtime";
import { createRequestHandler } from "@remix-run/server-runtime";
import fc from "fast-check";
import * as turboStreamEsm from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startSite } from "../support/site-process.mjs";

// The advisories on Remix v2 and turbo-stream that SECURITY.md lists, each checked against what we ship
// (docs/decisions/060): the patches of patches/ hold in the installed packages and in the browser bundle, and
// the site's server never reaches the rest.

const require = createRequire(import.meta.url);
/** The server's copy (CommonJS, as @remix-run/server-runtime requires it) and the browser's (ESM). */
const turboStreamCjs = require("turbo-stream") as typeof turboStreamEsm;
const { decodeViaTurboStream } = require("@remix-run/react/dist/single-fetch.js") as {
  decodeViaTurboStream: (body: ReadableStream<Uint8Array>, global: typeof globalThis) => Promise<{ value: unknown }>;
};
const { deserializeErrors } = require("@remix-run/react/dist/errors.js") as {
  deserializeErrors: (errors: Record<string, unknown>) => Record<string, unknown>;
};

/** Names a decoder would once have looked up on the global object and called with `new`. */
const CONSTRUCTOR_NAMES = [
  "Function",
  "AsyncFunction",
  "ArrayBuffer",
  "SharedArrayBuffer",
  "Array",
  "Proxy",
  "WebAssembly",
  "Worker",
  "RegExp",
  "Date",
  "Promise",
];
/** The standard error types React Router 7 rebuilds by name (and the patched @remix-run/react with it). */
const STANDARD_ERRORS = ["EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"];

const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const streamOf = (text: string) => new Blob([text]).stream();
const textOf = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/**
 * A Remix v2 app of this test's own, with Single Fetch on (as the site has, decision 018): one route whose
 * loader returns errors named as the request asks. It runs in development mode, the one mode in which Remix
 * sends an error's name at all (production sanitises every error to `Error("Unexpected Server Error")`).
 */
function ownSingleFetchApp(mode: "development" | "production") {
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: { default: () => null } } as never,
    "routes/named": {
      id: "routes/named",
      parentId: "root",
      path: "named",
      module: {
        default: () => null,
        // Reflects the reader's input, as a route may: the error's name and message come from the query.
        loader: ({ request }: { request: Request }) => {
          const query = new URL(request.url).searchParams;
          return {
            error: named(query.get("name") ?? "Error", query.get("message") ?? "return 1"),
            plain: new Error("plain"),
          };
        },
      },
    } as never,
  };
  const build = {
    mode,
    future: {
      v3_singleFetch: true,
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: false,
      v3_routeConfig: false,
      unstable_optimizeDeps: false,
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    assets: {
      version: "test",
      url: "/build/manifest-test.js",
      entry: { module: "/build/entry.js", imports: [] },
      routes: {},
    },
    entry: {
      module: {
        default: (_request: Request, status: number, headers: Headers) =>
          new Response("<!DOCTYPE html>", { status, headers }),
        handleError: () => {},
      },
    },
    routes,
    isSpaMode: false,
  } as unknown as ServerBuild;
  return createRequestHandler(build, mode);
}

describe("GHSA-49rj-9fvp-4h2h and GHSA-rxv8-25v2-qmq8: an error's name never picks a constructor", () => {
  it("turbo-stream sends an error as its message alone, in the server's copy and the browser's", async () => {
    for (const { encode, decode } of [turboStreamCjs, turboStreamEsm]) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CONSTRUCTOR_NAMES, ...STANDARD_ERRORS, "Custom"),
          fc.string(),
          async (name, message) => {
            const text = await textOf(encode({ error: named(name, message) }));
            expect(text).not.toContain(JSON.stringify(name));
            const { value } = (await decode(streamOf(text))) as { value: { error: Error } };
            expect(Object.getPrototypeOf(value.error)).toBe(Error.prototype);
            expect(value.error.message).toBe(message);
          },
        ),
        { numRuns: 100 },
      );
    }
  });

  it("a stream that names a constructor still decodes to a plain Error (both copies)", async () => {
    for (const { decode } of [turboStreamCjs, turboStreamEsm]) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...CONSTRUCTOR_NAMES, ...STANDARD_ERRORS),
          fc.oneof(fc.string(), fc.integer({ min: 0, max: 2 ** 31 })),
          async (name, message) => {
            // The value is slot 0; an error is ["E", message, name] in turbo-stream 2's format.
            const { value } = (await decode(streamOf(`${JSON.stringify([["E", message, name]])}\n`))) as {
              value: unknown;
            };
            expect(Object.getPrototypeOf(value)).toBe(Error.prototype);
          },
        ),
        { numRuns: 100 },
      );
    }
  });

  it("a Single Fetch round trip of a Remix v2 route: an error with another name comes back as Error", async () => {
    const handle = ownSingleFetchApp("development");
    for (const name of CONSTRUCTOR_NAMES) {
      const response = await handle(new Request(`http://localhost/named.data?name=${name}`));
      expect(response.status).toBe(200);
      const { value } = (await decodeViaTurboStream(response.body!, globalThis)) as {
        value: Record<string, { data: { error: Error; plain: Error } }>;
      };
      const { error, plain } = value["routes/named"]!.data;
      expect(Object.getPrototypeOf(error), name).toBe(Error.prototype);
      expect(error.message).toBe("return 1");
      expect(Object.getPrototypeOf(plain)).toBe(Error.prototype);
    }
    // The standard error types still come back as themselves, as in React Router 7.
    const response = await handle(new Request("http://localhost/named.data?name=RangeError"));
    const { value } = (await decodeViaTurboStream(response.body!, globalThis)) as {
      value: Record<string, { data: { error: Error } }>;
    };
    expect(value["routes/named"]!.data.error).toBeInstanceOf(RangeError);
  });

  it("reflected input cannot make the decoder allocate what it names (the denial of service of GHSA-rxv8-25v2-qmq8)", async () => {
    // Unpatched, `new ArrayBuffer("1000000000")` ran in the reader's browser for this address: 1 GB for
    // one request (measured: docs/decisions/060). Patched, the decoder builds an Error of that message.
    const handle = ownSingleFetchApp("development");
    for (const name of ["ArrayBuffer", "SharedArrayBuffer", "Array"]) {
      const before = process.memoryUsage().arrayBuffers;
      const response = await handle(new Request(`http://localhost/named.data?name=${name}&message=1000000000`));
      const { value } = (await decodeViaTurboStream(response.body!, globalThis)) as {
        value: Record<string, { data: { error: unknown } }>;
      };
      const error = value["routes/named"]!.data.error;
      expect(process.memoryUsage().arrayBuffers - before, name).toBeLessThan(16 * 1024 * 1024);
      expect(Object.getPrototypeOf(error), name).toBe(Error.prototype);
      expect((error as Error).message).toBe("1000000000");
    }
  });

  it("in production, as the site runs, no name crosses at all", async () => {
    const handle = ownSingleFetchApp("production");
    const response = await handle(new Request("http://localhost/named.data?name=Function"));
    const text = await response.text();
    expect(text).not.toContain('"Function"');
    expect(text).toContain("Unexpected Server Error");
  });

  it("hydration data naming a constructor rebuilds a plain Error (GHSA-337j-9hxr-rhxg)", () => {
    const restore = Object.getOwnPropertyDescriptor(globalThis, "window");
    // deserializeErrors reads `window`; the global object stands in for it.
    Object.defineProperty(globalThis, "window", { value: globalThis, configurable: true });
    try {
      for (const name of CONSTRUCTOR_NAMES) {
        const errors = deserializeErrors({ root: { __type: "Error", __subType: name, message: "return 1" } });
        expect(Object.getPrototypeOf(errors.root), name).toBe(Error.prototype);
      }
      expect(
        deserializeErrors({ root: { __type: "Error", __subType: "TypeError", message: "x" } }).root,
      ).toBeInstanceOf(TypeError);
    } finally {
      if (restore) Object.defineProperty(globalThis, "window", restore);
      else delete (globalThis as { window?: unknown }).window;
    }
  });

  it("the installed packages carry the patches", () => {
    const dist = path.dirname(require.resolve("turbo-stream"));
    for (const file of ["unflatten.js", "turbo-stream.mjs"]) {
      // The decoder's only reach for the global object was the constructor lookup.
      expect(readFileSync(path.join(dist, file), "utf8"), file).not.toMatch(/new globalObj\[/);
    }
    for (const file of ["flatten.js", "turbo-stream.mjs"]) {
      expect(readFileSync(path.join(dist, file), "utf8"), file).not.toMatch(/JSON\.stringify\(input2?\.name\)/);
    }
  });

  it("the browser bundle carries them too: no constructor looked up by a name from the response", () => {
    const chunks = readdirSync("public/build", { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".js"),
    );
    expect(chunks.length).toBeGreaterThan(3);
    let decoders = 0;
    for (const file of chunks) {
      const code = readFileSync(path.join("public/build", file), "utf8");
      // turbo-stream's lookup, minified: `new Bn[h](p)`.
      expect(code, file).not.toMatch(/new [\w$]+\[[\w$]+\]\(/);
      if (code.includes('"SanitizedError"')) {
        decoders += 1;
        // Remix's own decoder and hydration keep to the standard error types.
        expect(code, file).toContain(
          '["EvalError","RangeError","ReferenceError","SyntaxError","TypeError","URIError"]',
        );
        expect(code, file).not.toMatch(/let [\w$]+=window\[[\w$]+\.__subType\];/);
      }
    }
    expect(decoders).toBe(1);
  });
});

describe("the site's server against the other advisories", () => {
  let backend: Awaited<ReturnType<typeof startFakeBackend>>;
  let site: Awaited<ReturnType<typeof startSite>>;

  beforeAll(async () => {
    backend = await startFakeBackend({ articles: 3 });
    site = await startSite({ BLOG_API_URL: backend.url, BLOG_API_TOKEN: FAKE_TOKEN });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await backend?.close();
  });

  it("GHSA-8x6r-g9mw-2r78, GHSA-chx6-hx7r-mcp5: /__manifest is the site's 404 page, whatever paths it is asked for", async () => {
    const version = /manifest-([0-9A-F]+)\.js/.exec(await (await fetch(`${site.url}/`)).text())?.[1] ?? "";
    const notFound = await fetch(`${site.url}/__manifest?version=${version}`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("content-type")).toMatch(/^text\/html/);
    const usual = await notFound.text();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-z]{1,3}$/), { minLength: 1, maxLength: 2_500 }),
        fc.integer({ min: 1, max: 2_000 }),
        async (segments, count) => {
          // Deep paths, many of them: what made the manifest's path expansion expensive; within Node's 16 KB limit.
          const deep = `/${segments.join("/")}`.slice(0, 6_000);
          const query = [
            `p=${encodeURIComponent(deep)}`,
            ...Array.from({ length: Math.min(count, 1_200) }, (_, i) => `p=/${i}`),
          ].join("&");
          const reply = await fetch(`${site.url}/__manifest?version=${version}&${query}`);
          expect(reply.status).toBe(404);
          expect(reply.headers.get("content-type")).toMatch(/^text\/html/);
          // The same page as for no path at all: nothing was matched or sent per path.
          expect(await reply.text()).toBe(usual);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it("GHSA-84g9-w2xq-vcv6: PUT, PATCH and DELETE with a form from another site are refused before any route or backend call", async () => {
    const before = backend.calls().length;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("PUT", "PATCH", "DELETE", "POST"),
        fc.constantFrom(
          "/",
          "/blog",
          "/blog?index",
          "/blog/backend-article-1",
          "/search?q=x",
          "/blog.data",
          "/_root.data",
        ),
        fc.webUrl(),
        async (method, address, origin) => {
          const reply = await fetch(`${site.url}${address}`, {
            method,
            headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
            body: "intent=delete",
          });
          expect(reply.status, `${method} ${address}`).toBe(405);
          expect(reply.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        },
      ),
      { numRuns: 60 },
    );
    expect(backend.calls().length).toBe(before);
  }, 60_000);
});
