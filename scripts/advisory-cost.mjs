// `node scripts/advisory-cost.mjs`: what one Single Fetch reply that names a constructor costs the decoder of
// the browser bundle (GHSA-rxv8-25v2-qmq8, GHSA-49rj-9fvp-4h2h; docs/decisions/060). A Remix v2 route of this
// script's own, in development mode (the one mode in which Remix sends an error's name), reflects ?name= and
// ?message= into an error; the decoder then builds it. With the patches of patches/ every one is an Error; to
// see the cost they prevent, run `npx patch-package --reverse` first and `npx patch-package` after.
import { createRequire } from "node:module";
const require = createRequire(new URL("../package.json", import.meta.url));
const { createRequestHandler } = require("@remix-run/server-runtime");
const { decodeViaTurboStream } = require("@remix-run/react/dist/single-fetch.js");
const routes = {
  root: { id: "root", path: "", module: { default: () => null } },
  "routes/named": {
    id: "routes/named",
    parentId: "root",
    path: "named",
    module: {
      default: () => null,
      loader: ({ request }) => {
        const q = new URL(request.url).searchParams;
        return { error: Object.assign(new Error(q.get("message")), { name: q.get("name") }) };
      },
    },
  },
};
const build = {
  mode: "development",
  future: { v3_singleFetch: true },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  assets: { version: "x", url: "/m.js", entry: { module: "/e.js", imports: [] }, routes: {} },
  entry: { module: { default: (_r, status, headers) => new Response("", { status, headers }), handleError: () => {} } },
  routes,
};
const handle = createRequestHandler(build, "development");
for (const [name, message] of [
  ["Error", "1000000000"],
  ["ArrayBuffer", "100000000"],
  ["ArrayBuffer", "1000000000"],
  ["Function", "while(true){}"],
]) {
  const response = await handle(
    new Request(`http://localhost/named.data?name=${name}&message=${encodeURIComponent(message)}`),
  );
  const bytes = (await response.clone().arrayBuffer()).byteLength;
  const before = process.memoryUsage().arrayBuffers;
  const start = performance.now();
  const { value } = await decodeViaTurboStream(response.body, globalThis);
  const error = value["routes/named"].data.error;
  console.log(
    `${name}(${message}): reply ${bytes} bytes; decoding allocated ${((process.memoryUsage().arrayBuffers - before) / 2 ** 20).toFixed(0)} MiB in ${(performance.now() - start).toFixed(1)} ms; built ${Object.prototype.toString.call(error)} ${typeof error}`,
  );
}
