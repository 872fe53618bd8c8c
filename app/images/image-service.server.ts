import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Settings } from "~/site/config.server";
import { metrics, type ImageFetchOutcome } from "~/metrics/record.server";
import {
  formatVariantPath,
  parseVariantPath,
  type ImageBox,
  type ImageFormat,
  type VariantAddress,
} from "./image-variants";
import { deadLink, deadLinkCount, markDead } from "./dead-links.server";
import { createDiskCache } from "./disk-cache.server";
import { ImageSourceError } from "./errors.server";
import { fetchSource } from "./fetch-source.server";
import { localVersion, readLocalSource } from "./local-source.server";
import { makeVariant } from "./make-variant.server";
import { hasValidSignature, sign } from "./signing.server";
import { urlSecret } from "./url-secret.server";

/** Limits on a source (docs/decisions/015): a pin is ~160 KB and 0.8 megapixels. */
export const sourceLimits = { maxBytes: 15 * 1024 * 1024, maxPixels: 40_000_000, maxRedirects: 3 };

const IMMUTABLE = "public, max-age=31536000, immutable";
const FETCH_OUTCOMES: Record<ImageSourceError["status"], ImageFetchOutcome> = {
  403: "refused",
  404: "unavailable",
  413: "too_large",
  415: "not_an_image",
};
/** Refusals are kept briefly by browsers and proxies, so a dead link costs the origin little. */
const REFUSED = "public, max-age=300";

export type ImageServiceOptions = {
  secret: string;
  cacheDir: string;
  cacheMaxBytes: number;
  hosts?: readonly string[];
  fetchTimeoutMs: number;
};

export function createImageService(options: ImageServiceOptions) {
  const disk = createDiskCache({ dir: options.cacheDir, maxBytes: options.cacheMaxBytes });
  // One fetch or file read per source and one resize per variant, however many ask at once; a source
  // stays in memory a minute, as the 1x, 2x, WebP and JPEG copies of it are asked for together.
  const sourcesInFlight = new Map<string, Promise<Buffer>>();
  const recentSources = new LRUCache<string, Buffer>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (b) => b.length || 1,
    ttl: 60_000,
  });
  const variantsInFlight = new Map<string, Promise<Buffer>>();

  function loadSource(link: string): Promise<Buffer> {
    const recent = recentSources.get(link);
    if (recent) return Promise.resolve(recent);
    let pending = sourcesInFlight.get(link);
    if (!pending) {
      pending = (async () => {
        const bytes = link.startsWith("/")
          ? readLocalSource(link, sourceLimits.maxBytes)
          : await fetchSource(link, { ...sourceLimits, timeoutMs: options.fetchTimeoutMs, hosts: options.hosts }).then(
              (fetched) => (metrics.imageFetch("ok"), fetched),
              (error: unknown) => {
                if (error instanceof ImageSourceError) metrics.imageFetch(FETCH_OUTCOMES[error.status]);
                throw error;
              },
            );
        recentSources.set(link, bytes);
        return bytes;
      })().finally(() => sourcesInFlight.delete(link));
      sourcesInFlight.set(link, pending);
    }
    return pending;
  }

  function variant(address: VariantAddress, fileName: string): Promise<Buffer> {
    let pending = variantsInFlight.get(fileName);
    if (!pending) {
      pending = (async () => {
        const stored = await disk.get(fileName);
        if (stored) return (metrics.imageDiskHit(), stored);
        const source = await loadSource(address.source);
        const made = await makeVariant(source, address.box, address.format, sourceLimits.maxPixels);
        metrics.variantMade(address.format);
        await disk
          .put(fileName, made)
          .catch((error: Error) => console.warn(`Image cache: could not write ${fileName}: ${error.message}`));
        return made;
      })().finally(() => variantsInFlight.delete(fileName));
      variantsInFlight.set(fileName, pending);
    }
    return pending;
  }

  // Signing is an HMAC for each address, and every render of a page asks for the same few again.
  const signedPaths = new LRUCache<string, string>({ max: 10_000 });

  return {
    /** Bytes of copies in the disk cache, as this process counts them. */
    diskBytes: disk.size,

    /** The address of one copy of `link`, or undefined when there is nothing to show. */
    url(link: string, box: ImageBox, format: ImageFormat): string | undefined {
      if (deadLink(link)) return undefined;
      const version = link.startsWith("/") ? localVersion(link) : "r";
      if (!version) return undefined;
      const key = `${version} ${format} ${box.width}x${box.height} ${link}`;
      let signed = signedPaths.get(key);
      if (signed === undefined) {
        const unsigned = { version, source: link, box, format };
        signed = formatVariantPath({ ...unsigned, signature: sign(options.secret, unsigned) });
        signedPaths.set(key, signed);
      }
      return signed;
    },

    /** The answer for /img/{rest}: the copy, or a short 4xx that says why not. */
    async respond(rest: string): Promise<Response> {
      const address = parseVariantPath(rest);
      if (!address || !hasValidSignature(options.secret, address)) return refusal(404, "No such image.");
      const known = deadLink(address.source);
      if (known) return refusal(known.status, `Image source unavailable: ${known.reason}.`);
      const fileName = `${createHash("sha256").update(rest).digest("hex")}.${address.format}`;
      try {
        const bytes = await variant(address, fileName);
        return new Response(new Uint8Array(bytes), {
          headers: {
            "Content-Type": `image/${address.format}`,
            "Content-Length": String(bytes.length),
            "Cache-Control": IMMUTABLE,
            "X-Content-Type-Options": "nosniff",
          },
        });
      } catch (error) {
        if (!(error instanceof ImageSourceError)) throw error;
        // Several variants of one source may fail together: one log line per source.
        if (!deadLink(address.source))
          console.warn(`Image source refused (${error.status}): ${error.message}: ${address.source}`);
        markDead(address.source, { status: error.status, reason: error.message });
        return refusal(error.status, `Image source unavailable: ${error.message}.`);
      }
    },
  };
}

function refusal(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": REFUSED },
  });
}

export type ImageService = ReturnType<typeof createImageService>;

/** The process's image service, set up from its settings once (by the service registry, app/services). */
export function startImageService(images: Settings["images"]): ImageService {
  const service = createImageService({
    secret: urlSecret({ secret: images.urlSecret, cacheDir: images.cacheDir }),
    cacheDir: images.cacheDir,
    cacheMaxBytes: images.cacheMaxBytes,
    hosts: images.hosts,
    fetchTimeoutMs: images.fetchTimeoutMs,
  });
  metrics.watchImages({ diskBytes: service.diskBytes, deadLinks: deadLinkCount });
  return service;
}
