import { readFileSync } from "node:fs";
import { z } from "zod";
import { responsiveImage, type ImageVariant, type ResponsiveImage } from "~/lib/responsive-image";

const manifestSchema = z.record(z.string(), z.array(z.object({ width: z.number().int().positive(), url: z.string().startsWith("/build/") })));

let manifest: Map<string, ImageVariant[]> | undefined;

/**
 * The copies `npm run build` made of the site's own images (scripts/image-variants.mjs), read once.
 * The manifest sits beside the server build. Without it (no sharp, another server) pages use the
 * original images.
 */
function variantsManifest() {
  if (manifest) return manifest;
  try {
    const parsed = manifestSchema.parse(JSON.parse(readFileSync(new URL("./image-variants.json", import.meta.url), "utf8")));
    manifest = new Map(Object.entries(parsed));
  } catch {
    manifest = new Map();
  }
  return manifest;
}

/** How to show the image at `link` (an article's image link), when there is one. */
export function imageFor(link: string | undefined): ResponsiveImage | undefined {
  // A Map, so that a link such as "constructor" finds nothing rather than Object's own members.
  return link ? responsiveImage(link, variantsManifest().get(link)) : undefined;
}
