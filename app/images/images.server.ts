import { imageService } from "./image-service.server";
import { boxes, srcSet, type ImageBox, type ImageFormat } from "./image-variants";
import type { ArticleImages, ImageCandidates } from "./responsive-image";

/** The hero fills the article column: the whole width on phones, at most max-w-4xl (56rem) wider up. */
const HERO_SIZES = "(min-width: 56rem) 56rem, 100vw";

/**
 * The addresses of one image link's copies for one place on the page, or undefined when the link is
 * known dead or names no file: the page then leaves the image out.
 */
function candidates(link: string | undefined, list: ImageBox[], by: "density" | "width"): ImageCandidates | undefined {
  if (!link) return undefined;
  const service = imageService();
  const addresses = (format: ImageFormat) => {
    const found: { box: ImageBox; url: string }[] = [];
    for (const box of list) {
      const url = service.url(link, box, format);
      if (!url) return undefined;
      found.push({ box, url });
    }
    return found;
  };
  const avif = addresses("avif");
  const webp = addresses("webp");
  const jpeg = addresses("jpeg");
  if (!avif || !webp || !jpeg) return undefined;
  // Browsers without srcset get the middle hero width, or the 1x thumbnail.
  const fallback = by === "width" ? jpeg[Math.floor(jpeg.length / 2)]! : jpeg[0]!;
  return {
    avif: srcSet(avif, by),
    webp: srcSet(webp, by),
    jpeg: srcSet(jpeg, by),
    src: fallback.url,
    sizes: by === "width" ? HERO_SIZES : undefined,
  };
}

/** The round 80 px image of a blog card. */
export function cardImage(link: string | undefined): ImageCandidates | undefined {
  return candidates(link, boxes.card, "density");
}

/** The article's 64 px round thumbnail and its hero. */
export function articleImages(link: string | undefined): ArticleImages | undefined {
  const thumbnail = candidates(link, boxes.articleThumbnail, "density");
  const hero = candidates(link, boxes.hero, "width");
  return thumbnail && hero ? { thumbnail, hero } : undefined;
}
