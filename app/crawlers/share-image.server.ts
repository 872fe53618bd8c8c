import { LRUCache } from "lru-cache";
import sharp from "sharp";
import type { Translator } from "~/i18n/messages";
import { MARKS, type Tradition } from "~/site/traditions";
import { LOGO, logoSvg, shareImageSvg } from "./share-image";

/**
 * The share image and logo as PNG, drawn once per site name and kept: the first request pays the
 * rendering, the rest are answered from memory.
 */

// Bounded, as sites come and go by reloads of the sites file; a few tens of KB each.
const rendered = new LRUCache<string, Promise<Buffer>>({ max: 1000 });

function png(key: string, svg: () => string): Promise<Buffer> {
  let image = rendered.get(key);
  if (!image) {
    image = sharp(Buffer.from(svg())).png({ compressionLevel: 9, palette: true }).toBuffer();
    // A failed rendering is not kept: the next request tries again.
    image.catch(() => rendered.delete(key));
    rendered.set(key, image);
  }
  return image;
}

/** The share image in the site's language: its name, and the home page's heading as the tagline. */
/** The share image in the site's language: its tradition's mark, its name, and the home page's heading as the tagline. */
export function shareImagePng(site: {
  siteName: string;
  product: string;
  tradition: Tradition;
  language: { lang: string; translator: Translator };
}): Promise<Buffer> {
  const { lang, translator } = site.language;
  return png(`share:${lang}:${site.tradition}:${site.siteName}:${site.product}`, () =>
    shareImageSvg(site.siteName, translator.t("hero.title", { product: site.product }), MARKS[site.tradition], lang),
  );
}

/** The site's logo: its tradition's mark. */
export function logoPng(tradition: Tradition): Promise<Buffer> {
  return png(`logo:${LOGO.width}:${tradition}`, () => logoSvg(MARKS[tradition]));
}
