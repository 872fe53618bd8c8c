// Runs after `remix build`, before precompress. Two things for the scripts in public/build:
// - Terser minifies them again: ~4% fewer gzip bytes than esbuild's minifier on the React and router
//   code, for a few seconds of build time. Names stay: the hashed file names, imports and exports.
// - The large ones (React, the router, the shared components) get V8's explicit compile hint, so Chrome
//   compiles their functions on a background thread while the file streams in, instead of one by one on
//   the main thread when hydration first calls them. Browsers without the feature read a comment.
// Why: docs/decisions/011-less-main-thread-work-while-loading.md.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { minify } from "terser";
import { listFiles } from "./list-files.mjs";

const root = "public/build";
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
/** Files below this size compile quickly on demand; marking them would cost bytes for little. */
const LARGE = 8 * 1024;

let minified = 0;
let hinted = 0;
for (const relative of listFiles(root)) {
  // The route manifest is data (npm run size reads it as JSON): it stays as Remix wrote it.
  if (!relative.endsWith(".js") || /^manifest-[^/]*\.js$/.test(relative)) continue;
  const file = path.join(root, relative);
  const source = readFileSync(file, "utf8");
  // Terser drops comments, so a second run on the same build does not add a second hint.
  const { code } = await minify(source, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    format: { comments: false },
  });
  if (code === undefined) throw new Error(`terser returned nothing for ${file}`);
  const large = code.length >= LARGE;
  writeFileSync(file, large ? COMPILE_HINT + code : code);
  minified += 1;
  if (large) hinted += 1;
}
console.log(
  `Minified ${minified} scripts in ${root}; ${hinted} of ${LARGE / 1024} KB or more marked for eager compilation`,
);
