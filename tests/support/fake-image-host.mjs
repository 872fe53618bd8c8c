// A local stand-in for the host of the hosted backend's image links, for tests and benchmarks. It
// serves pin-sized photos (736 x 1104 JPEG, about 160 KB, made with sharp from gradients and noise so
// they compress as photos do) and sources that misbehave on purpose. It counts every request.
// Run alone: node tests/support/fake-image-host.mjs --port 4105
import http from "node:http";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { listenOnLoopback } from "./loopback.mjs";

/** Paths with a designed fault (any other path ending in .jpg is a pin). */
export const imageFaults = {
  "/huge.jpg": "a 50-megapixel JPEG (10,000 x 5,000)",
  "/slow.jpg": "a pin, after `slowMs` (default 20 s)",
  "/not-an-image.jpg": "200 with an HTML page",
  "/garbage.jpg": "200 image/jpeg with bytes that are no image",
  "/dead/…": "404",
  "/redirect?to=URL": "302 to URL",
};

export const PIN = { width: 736, height: 1104 };

/**
 * A photo-like JPEG: soft colour gradients, a fine texture (as of leaves or fabric) and a little
 * noise, which compress about as photos do: WebP smaller than JPEG at the sizes shown.
 */
export async function makePin({ width, height } = PIN, seed = 1) {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * channels;
      const wave = Math.sin(x / 37 + y / 53) * 30 + Math.cos(y / 21) * 20;
      const texture =
        30 *
        (Math.sin(x / 4.3 + Math.sin(y / 17) * 3) * Math.cos(y / 5.9 + Math.sin(x / 23) * 2) +
          0.5 * Math.sin((x + y) / 2.7 + Math.cos(x / 31) * 4));
      const noise = (random() - 0.5) * 14;
      pixels[i] = clamp(90 + (x / width) * 110 + wave + noise + texture);
      pixels[i + 1] = clamp(80 + (y / height) * 90 - wave / 2 + noise + texture * 0.8);
      pixels[i + 2] = clamp(60 + ((x + y) / (width + height)) * 80 + noise + texture * 0.6);
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 85 }).toBuffer();
}

const clamp = (value) => Math.max(0, Math.min(255, Math.round(value)));

let huge;
/** 50 megapixels of one colour: a small file (~300 KB) that would decode to 150 MB. Made once. */
function hugeImage() {
  huge ??= sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: "#777777" } })
    .jpeg({ quality: 50 })
    .toBuffer();
  return huge;
}

/** Starts the image host on 127.0.0.1. Options: port (0 = any), slowMs, latencyMs (every answer). */
export async function startFakeImageHost(options = {}) {
  // Made before the host answers, so that a short fetch time limit measures the site, not this.
  const [pin] = await Promise.all([makePin(), hugeImage()]);
  /** @type {Map<string, number>} */
  const counts = new Map();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname === "/__calls") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(Object.fromEntries(counts)));
    }
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    if (options.latencyMs) await sleep(options.latencyMs);
    const image = (bytes) => {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": bytes.length });
      res.end(bytes);
    };
    if (url.pathname === "/redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" });
      return res.end();
    }
    if (url.pathname === "/huge.jpg") return image(await hugeImage());
    if (url.pathname === "/slow.jpg") {
      await sleep(options.slowMs ?? 20_000);
      return image(pin);
    }
    if (url.pathname === "/not-an-image.jpg") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html><body>Pin not found</body></html>");
    }
    if (url.pathname === "/garbage.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg" });
      return res.end(Buffer.from("this is not a JPEG at all"));
    }
    if (url.pathname.startsWith("/dead/") || !url.pathname.endsWith(".jpg")) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found");
    }
    image(pin);
  });
  const { port, url, close } = await listenOnLoopback(server, options.port ?? 0);
  return {
    url,
    host: `127.0.0.1:${port}`,
    port,
    pinBytes: pin.length,
    /** How many times each path was asked for. */
    calls: () => Object.fromEntries(counts),
    close,
  };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const index = process.argv.indexOf("--port");
  const host = await startFakeImageHost({ port: index > -1 ? Number(process.argv[index + 1]) : 4105 });
  console.log(`fake image host listening on ${host.url} (pin: ${host.pinBytes} bytes)`);
  const stop = () => host.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
