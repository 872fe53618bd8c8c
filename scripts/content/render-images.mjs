// Rasterises the blog illustrations: scripts/content/svg/<slug>.svg -> public/images/blog/<slug>.jpg
// (1200x800 progressive JPEG, quality 78).
//
// sharp is NOT a project dependency. Install it in a scratch folder outside the project, then run:
//
//   mkdir -p /tmp/imgtool && (cd /tmp/imgtool && npm init -y && npm i sharp)
//   node scripts/content/make-svgs.mjs      # only if you changed the generator; regenerates the SVG sources
//   node scripts/content/render-images.mjs  # from the project root
//
// Set SHARP_DIR to use a different scratch folder, or run `npm i --no-save sharp` in the project instead.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const svgDir = path.join(here, "svg");
const outDir = path.join(root, "public/images/blog");

function loadSharp() {
  const candidates = [process.env.SHARP_DIR, "/tmp/imgtool", root].filter(Boolean);
  for (const dir of candidates) {
    try {
      return createRequire(path.join(dir, "package.json"))("sharp");
    } catch {
      /* try the next location */
    }
  }
  console.error("sharp not found. Install it with: mkdir -p /tmp/imgtool && cd /tmp/imgtool && npm init -y && npm i sharp");
  process.exit(1);
}

const sharp = loadSharp();
fs.mkdirSync(outDir, { recursive: true });

const only = process.argv.slice(2);
let total = 0;
for (const file of fs.readdirSync(svgDir).filter((f) => f.endsWith(".svg")).sort()) {
  const slug = file.replace(/\.svg$/, "");
  if (only.length && !only.includes(slug)) continue;
  const out = path.join(outDir, `${slug}.jpg`);
  const info = await sharp(path.join(svgDir, file), { density: 72 })
    .resize(1200, 800, { fit: "cover" })
    .flatten({ background: "#ede5d5" })
    .jpeg({ quality: 78, progressive: true, mozjpeg: true, chromaSubsampling: "4:2:0" })
    .toFile(out);
  total += info.size;
  const flag = info.size > 90 * 1024 ? "  (over 90 KB)" : "";
  console.log(`${slug}.jpg  ${info.width}x${info.height}  ${(info.size / 1024).toFixed(1)} KB${flag}`);
}
console.log(`total ${(total / 1024).toFixed(1)} KB`);
