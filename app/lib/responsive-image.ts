/** A copy of an image at one width, made by scripts/image-variants.mjs. */
export type ImageVariant = { width: number; url: string };

/** How the pages show an image: the hero's source and candidates, and a small copy for 80 px circles. */
export type ResponsiveImage = { src: string; srcSet?: string; thumbnail: string };

/** Enough pixels for an 80 px circle on a 2x screen. */
const THUMBNAIL_WIDTH = 160;
/** Smaller copies are for thumbnails only, never a hero candidate. */
const SMALLEST_HERO_WIDTH = 400;

/** The image to show for `link`: its smaller copies when there are any, else the link itself. */
export function responsiveImage(link: string, variants: readonly ImageVariant[] | undefined): ResponsiveImage {
  const byWidth = [...(variants ?? [])].sort((a, b) => a.width - b.width);
  const largest = byWidth.at(-1);
  if (!largest) return { src: link, thumbnail: link };
  const thumbnail = byWidth.find((variant) => variant.width >= THUMBNAIL_WIDTH) ?? largest;
  const hero = byWidth.filter((variant) => variant.width >= SMALLEST_HERO_WIDTH);
  return {
    src: largest.url,
    srcSet: hero.length > 1 ? hero.map((variant) => `${variant.url} ${variant.width}w`).join(", ") : undefined,
    thumbnail: thumbnail.url,
  };
}
