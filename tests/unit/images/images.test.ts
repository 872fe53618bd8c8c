import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetDeadLinks } from "~/images/dead-links.server";
import { createDiskCache } from "~/images/disk-cache.server";
import { ImageSourceError } from "~/images/errors.server";
import { fetchSource, type FetchLimits } from "~/images/fetch-source.server";
import { createImageService } from "~/images/image-service.server";
import { makeVariant } from "~/images/make-variant.server";
import { urlSecret } from "~/images/url-secret.server";
import { boxes, IMAGE_PATH_PREFIX } from "~/images/image-variants";
import { startFakeImageHost } from "../../support/fake-image-host.mjs";

// The image path on its own: which sources are fetched and which refused, what the copies are, and
// that each is made once. tests/server/images.test.ts covers the same through the real server.

type Host = Awaited<ReturnType<typeof startFakeImageHost>>;
let host: Host;
const limits = (extra: Partial<FetchLimits> = {}): FetchLimits => ({
  timeoutMs: 3000,
  maxBytes: 1_000_000,
  maxRedirects: 3,
  ...extra,
});

beforeAll(async () => {
  host = await startFakeImageHost({ slowMs: 5000 });
}, 60_000);
afterAll(() => host.close());

/** AVIF's signature: an ISO-BMFF `ftyp` box at byte 4 whose major brand is `avif`. */
const isAvif = (bytes: Buffer) => bytes.subarray(4, 12).toString("latin1") === "ftypavif";

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "the fetch was refused").toBeInstanceOf(ImageSourceError);
  const { status, message } = error as ImageSourceError;
  return { status, message };
}

describe("fetching a source", () => {
  it("fetches a listed host's image", async () => {
    const bytes = await fetchSource(`${host.url}/pin/a.jpg`, limits({ hosts: [host.host] }));
    expect(bytes.length).toBe(host.pinBytes);
  });

  it.each([
    ["a loopback address", () => `${host.url}/pin/a.jpg`],
    ["a private address", () => "http://10.0.0.1/pin/a.jpg"],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ["an IPv6 loopback address", () => "http://[::1]/a.jpg"],
    ["an IPv4-mapped loopback address", () => "http://[::ffff:7f00:1]/a.jpg"],
    ["a name that resolves to loopback", () => `http://localhost:${host.port}/pin/a.jpg`],
  ])("refuses %s when IMAGE_HOSTS is not set", async (_name, link) => {
    const before = host.calls()["/pin/a.jpg"] ?? 0;
    expect((await refusal(fetchSource(link(), limits()))).status).toBe(403);
    expect(host.calls()["/pin/a.jpg"] ?? 0, "no request reached the host").toBe(before);
  });

  it.each(["file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "ftp://example.org/a.jpg"])(
    "refuses %s",
    async (link) => {
      expect((await refusal(fetchSource(link, limits()))).status).toBe(403);
    },
  );

  it("with IMAGE_HOSTS set, fetches only the listed hosts", async () => {
    const { status, message } = await refusal(
      fetchSource(`http://localhost:${host.port}/pin/a.jpg`, limits({ hosts: [host.host] })),
    );
    expect(status).toBe(403);
    expect(message).toContain("IMAGE_HOSTS");
  });

  it("checks every redirect again: a redirect to a private or loopback address is refused", async () => {
    for (const target of [
      "http://10.0.0.1/a.jpg",
      `http://localhost:${host.port}/pin/a.jpg`,
      "http://169.254.169.254/",
    ]) {
      const link = `${host.url}/redirect?to=${encodeURIComponent(target)}`;
      expect((await refusal(fetchSource(link, limits({ hosts: [host.host] })))).status).toBe(403);
    }
    const fine = `${host.url}/redirect?to=${encodeURIComponent(`${host.url}/pin/b.jpg`)}`;
    expect((await fetchSource(fine, limits({ hosts: [host.host] }))).length).toBe(host.pinBytes);
  });

  it("gives up on a slow source at the time limit", async () => {
    const { status, message } = await refusal(
      fetchSource(`${host.url}/slow.jpg`, limits({ hosts: [host.host], timeoutMs: 300 })),
    );
    expect(status).toBe(404);
    expect(message).toContain("in time");
  });

  it("refuses a source that is not an image, a missing one, and one over the byte limit", async () => {
    const hosts = [host.host];
    expect((await refusal(fetchSource(`${host.url}/not-an-image.jpg`, limits({ hosts })))).status).toBe(415);
    expect((await refusal(fetchSource(`${host.url}/dead/a.jpg`, limits({ hosts })))).status).toBe(404);
    expect((await refusal(fetchSource(`${host.url}/pin/a.jpg`, limits({ hosts, maxBytes: 10_000 })))).status).toBe(413);
  });
});

describe("making a copy", () => {
  let pin: Buffer;
  beforeAll(async () => {
    pin = await fetchSource(`${host.url}/pin/a.jpg`, limits({ hosts: [host.host] }));
  });

  it("crops and scales a pin to each box, never enlarging it", async () => {
    for (const [box, expected] of [
      [boxes.card[0]!, { width: 80, height: 80 }],
      [boxes.card[1]!, { width: 160, height: 160 }],
      [boxes.hero[0]!, { width: 480, height: 320 }],
      [boxes.hero[2]!, { width: 736, height: 491 }],
    ] as const) {
      const made = await makeVariant(pin, box, "webp", 40_000_000);
      expect(await sharp(made).metadata()).toMatchObject({ format: "webp", ...expected });
    }
    const jpeg = await makeVariant(pin, boxes.card[0]!, "jpeg", 40_000_000);
    expect((await sharp(jpeg).metadata()).format).toBe("jpeg");
  });

  it("makes AVIF copies that are AVIF, and lighter than the WebP of the same box", async () => {
    const hero = boxes.hero[1]!;
    const avif = await makeVariant(pin, hero, "avif", 40_000_000);
    expect(isAvif(avif), "an ISO-BMFF file whose brand is avif").toBe(true);
    expect(await sharp(avif).metadata()).toMatchObject({ format: "heif", compression: "av1", width: 736, height: 490 });
    const webp = await makeVariant(pin, hero, "webp", 40_000_000);
    expect(avif.length).toBeLessThan(webp.length * 0.7);
  });

  it("refuses a 50-megapixel image before decoding it, and bytes that are no image", async () => {
    const huge = await fetchSource(`${host.url}/huge.jpg`, limits({ hosts: [host.host], maxBytes: 20_000_000 }));
    expect((await refusal(makeVariant(huge, boxes.card[0]!, "webp", 40_000_000))).status).toBe(413);
    const garbage = await fetchSource(`${host.url}/garbage.jpg`, limits({ hosts: [host.host] }));
    expect((await refusal(makeVariant(garbage, boxes.card[0]!, "webp", 40_000_000))).status).toBe(415);
  });
});

describe("the image service", () => {
  let cacheDir: string;
  const make = () =>
    createImageService({
      secret: "a test secret of some length",
      cacheDir,
      cacheMaxBytes: 10_000_000,
      hosts: [host.host],
      fetchTimeoutMs: 3000,
    });
  const rest = (url: string) => url.slice(IMAGE_PATH_PREFIX.length);

  beforeEach(() => {
    cacheDir = mkdtempSync(path.join(tmpdir(), "image-cache-"));
    forgetDeadLinks();
    return () => rmSync(cacheDir, { recursive: true, force: true });
  });

  it("makes each copy once however many ask at the same moment, keeps it on disk, and marks it immutable", async () => {
    const link = `${host.url}/pin/once.jpg`;
    const service = make();
    const url = service.url(link, boxes.card[1]!, "webp")!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.respond(rest(url))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers[0]!.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(answers[0]!.headers.get("content-type")).toBe("image/webp");
    expect(host.calls()["/pin/once.jpg"]).toBe(1);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith(".webp"))).toHaveLength(1);

    // Another process (or a restart) with the same folder answers from disk.
    const again = await make().respond(rest(url));
    expect(again.status).toBe(200);
    expect(host.calls()["/pin/once.jpg"]).toBe(1);
  });

  it("serves AVIF copies as image/avif, and finds them on disk after a restart", async () => {
    const link = `${host.url}/pin/avif.jpg`;
    const url = make().url(link, boxes.hero[0]!, "avif")!;
    expect(url.endsWith("/480x320.avif")).toBe(true);
    const answer = await make().respond(rest(url));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/avif");
    expect(isAvif(Buffer.from(await answer.arrayBuffer()))).toBe(true);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith(".avif"))).toHaveLength(1);

    const again = await make().respond(rest(url));
    expect(again.headers.get("content-type")).toBe("image/avif");
    expect(host.calls()["/pin/avif.jpg"], "read from disk, not made again").toBe(1);
  });

  it("answers only addresses it signed", async () => {
    const service = make();
    const url = service.url(`${host.url}/pin/signed.jpg`, boxes.card[0]!, "webp")!;
    const forged = url.replace(/\/img\/[^/]+\//, "/img/AAAAAAAAAAAAAAAAAAAAAA/");
    expect((await service.respond(rest(forged))).status).toBe(404);
    const otherBox = url.replace("80x80", "160x160");
    expect((await service.respond(rest(otherBox))).status).toBe(404);
    const otherSecret = createImageService({
      secret: "another secret entirely",
      cacheDir,
      cacheMaxBytes: 1e7,
      fetchTimeoutMs: 3000,
    });
    expect((await otherSecret.respond(rest(url))).status).toBe(404);
    expect(host.calls()["/pin/signed.jpg"]).toBeUndefined();
  });

  it("remembers a dead link: one log line, a 4xx, and no more addresses for it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const link = `${host.url}/dead/gone.jpg`;
    const service = make();
    const urls = [service.url(link, boxes.card[0]!, "webp")!, service.url(link, boxes.card[1]!, "jpeg")!];
    const answers = await Promise.all(urls.map((url) => service.respond(rest(url))));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404]);
    expect(await answers[0]!.text()).toContain("unavailable");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain(link);
    expect(service.url(link, boxes.card[0]!, "webp")).toBeUndefined();
    expect((await service.respond(rest(urls[0]!))).status).toBe(404);
    expect(host.calls()["/dead/gone.jpg"]).toBe(1);
    warn.mockRestore();
  });

  it("serves the site's own images from public/, versioned by their content", async () => {
    const service = make();
    const url = service.url("/images/blog/beginners-mind.jpg", boxes.articleThumbnail[1]!, "jpeg")!;
    expect(url).toMatch(/^\/img\/[\w-]+\/[0-9a-f]{10}\//);
    const answer = await service.respond(rest(url));
    expect(answer.status).toBe(200);
    expect(await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).toMatchObject({
      width: 128,
      height: 128,
      format: "jpeg",
    });
    expect(service.url("/images/blog/no-such-file.jpg", boxes.card[0]!, "webp")).toBeUndefined();
    expect(service.url("/../package.json", boxes.card[0]!, "webp")).toBeUndefined();
  });
});

describe("the disk cache", () => {
  it("stays within its size bound, removing the least recently used files, and finds its files again after a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "disk-cache-"));
    try {
      const name = (n: number) => `${String(n).repeat(64)}.webp`;
      const cache = createDiskCache({ dir, maxBytes: 250 });
      for (const n of [1, 2]) await cache.put(name(n), Buffer.alloc(100, n));
      expect(await cache.get(name(1))).toEqual(Buffer.alloc(100, 1)); // 1 is now more recent than 2
      await cache.put(name(3), Buffer.alloc(100, 3));
      // Removal runs in the background: waited for (50 ms was too short on a busy CI machine), then checked exactly.
      for (const deadline = Date.now() + 5_000; readdirSync(dir).length > 2 && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(readdirSync(dir).sort()).toEqual([name(1), name(3)]);
      expect(await cache.get(name(2))).toBeUndefined();

      const restarted = createDiskCache({ dir, maxBytes: 250 });
      expect(await restarted.get(name(3))).toEqual(Buffer.alloc(100, 3));
      expect(restarted.size()).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the signing key without IMAGE_URL_SECRET", () => {
  it("is made once in the cache folder and read by every later call, leaving no draft behind", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "url-secret-"));
    try {
      const first = urlSecret({ cacheDir: dir });
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(urlSecret({ cacheDir: dir })).toBe(first);
      expect(readdirSync(dir)).toEqual(["url-secret"]);
      expect(urlSecret({ cacheDir: dir, secret: "from-the-setting" })).toBe("from-the-setting");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
