// Runs in `npm run build`: writes WebP copies of every image in public/images at the widths the pages
// show them (a card's 80 px circle, the article hero on phones and desktops), named by content hash so
// they can be cached for a year, and a manifest the server reads to offer them (docs/decisions/010).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { listFiles } from "./list-files.mjs";

const sourceRoot = "public/images";
const outputRoot = "public/build/images";
const manifestPath = "build/image-variants.json";
/** 160: the 80 px card and article thumbnails on 2x screens; 800 and 1200: the hero (srcset). */
const widths = [160, 800, 1200];
const quality = 72;

let sharp;
try {
  sharp = (await import("sharp")).default;
} catch (error) {
  // The site still works with the original images; it only sends more bytes.
  console.warn(`Image variants skipped: sharp could not be loaded (${error.message})`);
}

const manifest = {};
let written = 0;
if (sharp) {
  const images = [...listFiles(sourceRoot)].filter((relative) => /\.(jpe?g|png|webp)$/i.test(relative));
  for (const relative of images) {
    const file = path.join(sourceRoot, relative);
    const source = readFileSync(file);
    const hash = createHash("sha256").update(source).digest("hex").slice(0, 10);
    const stem = relative.slice(0, -path.extname(relative).length).split(path.sep).join("/");
    try {
      const { width: sourceWidth } = await sharp(source).metadata();
      // Never enlarge: widths above the source's collapse into one copy at the source's width.
      const targets = [...new Set(widths.map((width) => Math.min(width, sourceWidth)))];
      const variants = [];
      for (const width of targets) {
        const name = `${stem}-${hash}-${width}.webp`;
        const output = path.join(outputRoot, name);
        mkdirSync(path.dirname(output), { recursive: true });
        writeFileSync(output, await sharp(source).resize({ width }).webp({ quality }).toBuffer());
        variants.push({ width, url: `/build/images/${name}` });
        written += 1;
      }
      manifest[`/images/${relative.split(path.sep).join("/")}`] = variants;
    } catch (error) {
      console.warn(`Image variants skipped for ${file}: ${error.message}`);
    }
  }
}
mkdirSync(path.dirname(manifestPath), { recursive: true });
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`Wrote ${written} image variants for ${Object.keys(manifest).length} images (${manifestPath})`);
