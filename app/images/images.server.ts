import type { ImageService } from "./image-service.server";
import { boxes, srcSet, type ImageBox, type ImageFormat } from "./image-variants";
import type { ArticleImages, ImageCandidates } from "./responsive-image";

/** The hero fills the article column: the whole width on phones, at most max-w-4xl (56rem) wider up. */
const HERO_SIZES = "(min-width: 56rem) 56rem, 100vw";

/**
 * The addresses of one image link's copies for one place on the page, or undefined when the link is
 * known dead or names no file: the page then leaves the image out.
 */
function candidates(
  service: Pick<ImageService, "url">,
  link: string | undefined,
  list: ImageBox[],
  by: "density" | "width",
): ImageCandidates | undefined {
  if (!link) return undefined;
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

export type PageImages = ReturnType<typeof pageImages>;

/** The images of the pages, their addresses signed by `service`. */
export function pageImages(service: Pick<ImageService, "url">) {
  return {
    /** The round 80 px image of a blog card. */
    cardImage(link: string | undefined): ImageCandidates | undefined {
      return candidates(service, link, boxes.card, "density");
    },
    /** The article's 64 px round thumbnail and its hero. */
    articleImages(link: string | undefined): ArticleImages | undefined {
      const thumbnail = candidates(service, link, boxes.articleThumbnail, "density");
      const hero = candidates(service, link, boxes.hero, "width");
      return thumbnail && hero ? { thumbnail, hero } : undefined;
    },
  };
}
