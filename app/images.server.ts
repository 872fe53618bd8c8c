import { readFileSync } from "node:fs";
import { z } from "zod";
import { responsiveImage, type ResponsiveImage } from "~/lib/responsive-image";

const manifestSchema = z.record(z.string(), z.array(z.object({ width: z.number().int().positive(), url: z.string().startsWith("/build/") })));

let manifest: z.infer<typeof manifestSchema> | undefined;

/**
 * The copies `npm run build` made of the site's own images (scripts/image-variants.mjs), read once.
 * The manifest sits beside the server build. Without it (no sharp, another server) pages use the
 * original images.
 */
function variantsManifest() {
  if (manifest) return manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(new URL("./image-variants.json", import.meta.url), "utf8")));
  } catch {
    manifest = {};
  }
  return manifest;
}

/** How to show the image at `link` (an article's image link). */
export function imageFor(link: string): ResponsiveImage {
  return responsiveImage(link, variantsManifest()[link]);
}
