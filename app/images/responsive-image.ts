/**
 * One image as the pages show it: an AVIF and a WebP `<source>`, and a JPEG `<img>` for browsers that
 * take neither, each with candidates for 1x and 2x screens (or widths, with `sizes`). The browser picks
 * by the `<source>`'s type, so every address is one file and a CDN needs no `Vary: Accept`. Every
 * address is on the site's own origin (app/images/images.server.ts writes them).
 */
export type ImageCandidates = {
  avif: string;
  webp: string;
  jpeg: string;
  /** The JPEG for browsers that know no `srcset`. */
  src: string;
  sizes?: string;
};

/** The two images of an article page: the round thumbnail in the header and the hero. */
export type ArticleImages = { thumbnail: ImageCandidates; hero: ImageCandidates };
