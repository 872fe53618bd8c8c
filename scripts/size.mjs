// `npm run size`: the JavaScript and CSS each route makes a browser download, gzip bytes, against the
// budget. Exits non-zero when a route is over. Run after `npm run build`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = { js: 92 * 1024, css: 20 * 1024 };
const buildDir = "public/build";

const manifestFile = readdirSync(buildDir).find((name) => /^manifest-.*\.js$/.test(name));
if (!manifestFile) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}
const manifestSource = readFileSync(path.join(buildDir, manifestFile), "utf8");
const manifest = JSON.parse(manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1));
const manifestUrl = `/build/${manifestFile}`;

// The bytes the server sends a gzip client: the precompressed .gz copy when the build has one
// (scripts/precompress.mjs), else what zlib's best level gives.
const gzipped = new Map();
const gzipSize = (url) => {
  if (!gzipped.has(url)) {
    const file = path.join("public", url);
    gzipped.set(
      url,
      existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : gzipSync(readFileSync(file), { level: 9 }).length,
    );
  }
  return gzipped.get(url);
};

const css = readdirSync(path.join(buildDir, "_assets"))
  .filter((name) => name.endsWith(".css"))
  .map((name) => `/build/_assets/${name}`);
const cssBytes = css.reduce((sum, url) => sum + gzipSize(url), 0);

/**
 * The scripts a script fetches later by a literal `import("/build/…")`, with the scripts those import: the
 * Web Vitals measurement (app/vitals) is fetched by every page after hydration, and counts as much.
 */
const laterImports = (url, found = new Set(), pattern = /import\("(\/build\/[^"]+\.js)"\)/g) => {
  for (const [, imported] of readFileSync(path.join("public", url), "utf8").matchAll(pattern)) {
    if (found.has(imported)) continue;
    found.add(imported);
    laterImports(imported, found, /(?:import|from)\s*\(?"(\/build\/[^"]+\.js)"/g);
  }
  return found;
};

/** The route ids from the root to a leaf. */
const chain = (id) => {
  const ids = [];
  for (let current = id; current; current = manifest.routes[current]?.parentId) ids.unshift(current);
  return ids;
};

// Pages only: resource routes (sitemap[.]xml, robots[.]txt, rss[.]xml) send no JavaScript.
const leaves = Object.keys(manifest.routes).filter(
  (id) =>
    id !== "root" && !id.includes("[.]") && !Object.values(manifest.routes).some((route) => route.parentId === id),
);

let over = false;
const rows = [];
for (const leaf of leaves.filter((id) => manifest.routes[id].module)) {
  // The route manifest is a script every page loads too.
  const files = new Set([manifestUrl, manifest.entry.module, ...manifest.entry.imports]);
  for (const id of chain(leaf)) {
    const route = manifest.routes[id];
    if (route.module) files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  for (const url of [...files]) for (const later of laterImports(url)) files.add(later);
  const jsBytes = [...files].reduce((sum, url) => sum + gzipSize(url), 0);
  const ok = jsBytes <= BUDGET.js && cssBytes <= BUDGET.css;
  over ||= !ok;
  rows.push({ route: manifest.routes[leaf].path ?? "/", js: jsBytes, css: cssBytes, ok });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `Budget: JavaScript ${kb(BUDGET.js)}, CSS ${kb(BUDGET.css)} per route, gzip bytes as served (1 KB = 1024 bytes)\n`,
);
console.log("route".padEnd(22) + "JS gzip".padStart(12) + "CSS gzip".padStart(12) + "  status");
for (const row of rows) {
  console.log(
    row.route.padEnd(22) + kb(row.js).padStart(12) + kb(row.css).padStart(12) + `  ${row.ok ? "ok" : "OVER BUDGET"}`,
  );
}
process.exit(over ? 1 : 0);
