import sharp, { type Sharp } from "sharp";
import type { ImageBox, ImageFormat } from "./image-variants";
import settings from "./encoder-settings.json";
import { ImageSourceError } from "./errors.server";

// One thread per image: a burst of new images may not take both cores from the pages.
sharp.concurrency(1);

/**
 * Quality settings (encoder-settings.json, which bench:images also reads) chosen by eye on photos at
 * the sizes shown (decisions 015 and 025). AVIF at effort 3 takes a third to a quarter of the CPU of
 * sharp's default (4) for files a little larger; effort 2 and below lose most of AVIF's gain over WebP.
 * Chroma at 4:2:0, as WebP and JPEG have it.
 */
const encoders = {
  avif: (image: Sharp) => image.avif(settings.avif),
  webp: (image: Sharp) => image.webp(settings.webp),
  jpeg: (image: Sharp) => image.jpeg(settings.jpeg),
} satisfies Record<ImageFormat, (image: Sharp) => Sharp>;

/**
 * A copy of `source` cropped to the box's shape (centred, as CSS object-cover shows it) and scaled to
 * the box, or as near as the source allows: never enlarged. Refuses what is not an image and images
 * of more than `maxPixels` (decompression bombs) before decoding them.
 */
export async function makeVariant(
  source: Buffer,
  box: ImageBox,
  format: ImageFormat,
  maxPixels: number,
): Promise<Buffer> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(source).metadata());
  } catch {
    throw new ImageSourceError(415, "the source is not an image");
  }
  if (!width || !height) throw new ImageSourceError(415, "the source is not an image");
  if (width * height > maxPixels)
    throw new ImageSourceError(413, `the source has ${width}x${height} pixels, over the limit`);
  const scale = Math.min(1, width / box.width, height / box.height);
  const target = {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
  try {
    const image = sharp(source, { limitInputPixels: maxPixels, failOn: "error" })
      .rotate()
      .resize({ ...target, fit: "cover", position: "centre" })
      .flatten({ background: "#ffffff" });
    return await encoders[format](image).toBuffer();
  } catch {
    throw new ImageSourceError(415, "the source could not be decoded as an image");
  }
}
