/**
 * The copies of an image the pages show, and how their addresses are written. An address names the
 * source link, the box and format of the copy, a version and a signature (checked on the server), so
 * that every address is a fixed file a CDN may keep for a year:
 *   /img/{signature}/{version}/{source link, base64url}/{width}x{height}.{format}
 */

/** Best first: the order of the `<source>`s, AVIF and WebP, then the JPEG every browser shows. */
export const IMAGE_FORMATS = ["avif", "webp", "jpeg"] as const;

export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The box a copy is made for: cropped to it (centred, as `object-cover` shows it), never enlarged. */
export type ImageBox = { width: number; height: number };

export type VariantAddress = {
  signature: string;
  /** A hash of a local file's content ("r" for links to other hosts). */
  version: string;
  source: string;
  box: ImageBox;
  format: ImageFormat;
};

export const IMAGE_PATH_PREFIX = "/img/";

/** Every box the pages use: 1x and 2x of the round thumbnails, and the hero's widths at 3:2. */
export const boxes = {
  card: [
    { width: 80, height: 80 },
    { width: 160, height: 160 },
  ],
  articleThumbnail: [
    { width: 64, height: 64 },
    { width: 128, height: 128 },
  ],
  hero: [
    { width: 480, height: 320 },
    { width: 800, height: 533 },
    { width: 1200, height: 800 },
  ],
} satisfies Record<string, ImageBox[]>;

const knownBoxes = new Set(Object.values(boxes).flatMap((list) => list.map(boxName)));

export function boxName({ width, height }: ImageBox): string {
  return `${width}x${height}`;
}

/** The text a signature covers: everything in the address but the signature. */
export function signedText({ version, source, box, format }: Omit<VariantAddress, "signature">): string {
  return `${version}\n${source}\n${boxName(box)}.${format}`;
}

export function formatVariantPath(address: VariantAddress): string {
  const source = Buffer.from(address.source, "utf8").toString("base64url");
  return `${IMAGE_PATH_PREFIX}${address.signature}/${address.version}/${source}/${boxName(address.box)}.${address.format}`;
}

const variantPath = new RegExp(
  `^([A-Za-z0-9_-]{16,64})/([a-z0-9]{1,16})/([A-Za-z0-9_-]{2,4000})/(\\d{1,4})x(\\d{1,4})\\.(${IMAGE_FORMATS.join("|")})$`,
);

/** The parts of an address after /img/, or undefined when it is not one the pages could have written. */
export function parseVariantPath(rest: string): VariantAddress | undefined {
  const match = variantPath.exec(rest);
  if (!match) return undefined;
  const [, signature, version, encoded, width, height, format] = match;
  const box = { width: Number(width), height: Number(height) };
  if (!knownBoxes.has(boxName(box))) return undefined;
  const source = Buffer.from(encoded!, "base64url").toString("utf8");
  return { signature: signature!, version: version!, source, box, format: format as ImageFormat };
}

/** A `srcset` value: density descriptors for fixed-size boxes, width descriptors for the hero. */
export function srcSet(candidates: { url: string; box: ImageBox }[], by: "density" | "width"): string {
  const smallest = candidates[0]?.box.width ?? 1;
  return candidates
    .map(({ url, box }) => `${url} ${by === "width" ? `${box.width}w` : `${box.width / smallest}x`}`)
    .join(", ");
}
