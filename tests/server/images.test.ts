import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_TOKEN, startFakeBackend } from "../support/fake-backend.mjs";
import { startFakeImageHost } from "../support/fake-image-host.mjs";
import { startSite } from "../support/site-process.mjs";

// The image path through the whole production server: the copies the pages link to, what a
// refused or failing source gives, and that a page rendered after a failure leaves the image out.

type Site = Awaited<ReturnType<typeof startSite>>;
let host: Awaited<ReturnType<typeof startFakeImageHost>>;
let backend: Awaited<ReturnType<typeof startFakeBackend>>;
/** Fetches only from the image host (IMAGE_HOSTS), as an operator's own image server would be. */
let listed: Site;
/** IMAGE_HOSTS unset: the image host on 127.0.0.1 is a loopback address like any other. */
let open: Site;
const cacheDirs: string[] = [];

const entry = (slug: string, link: string) => ({
  id: slug,
  slug,
  metaTitle: `Card ${slug}`,
  metaDescription: `About ${slug}.`,
  pinterestImageLink: link,
});
const sources = () => ({
  pin: `${host.url}/pin/server-test.jpg`,
  huge: `${host.url}/huge.jpg`,
  slow: `${host.url}/slow.jpg`,
  notImage: `${host.url}/not-an-image.jpg`,
  dead: `${host.url}/dead/server-test.jpg`,
  redirectToPrivate: `${host.url}/redirect?to=${encodeURIComponent("http://10.0.0.1/a.jpg")}`,
  metadata: "http://169.254.169.254/latest/meta-data/iam.jpg",
  localhost: `http://localhost:${host.port}/pin/by-name.jpg`,
});

async function siteWith(env: Record<string, string>): Promise<Site> {
  const cacheDir = mkdtempSync(path.join(tmpdir(), "site-images-"));
  cacheDirs.push(cacheDir);
  return startSite({
    BLOG_API_URL: backend.url,
    BLOG_API_TOKEN: FAKE_TOKEN,
    PAGE_CACHE_SECONDS: "0",
    IMAGE_CACHE_DIR: cacheDir,
    ...env,
  });
}

/** The addresses a page offers for one source link, from its HTML (every srcset candidate and src). */
async function copiesOn(site: Site, pagePath: string, link: string): Promise<string[]> {
  const html = await (await fetch(`${site.url}${pagePath}`)).text();
  const encoded = Buffer.from(link).toString("base64url");
  return [...new Set(html.match(new RegExp(`/img/[\\w-]+/\\w+/${encoded}/\\d+x\\d+\\.(avif|webp|jpeg)`, "g")) ?? [])];
}

beforeAll(async () => {
  host = await startFakeImageHost({ slowMs: 4000 });
  const links = sources();
  backend = await startFakeBackend({
    imageBase: host.url,
    listBody: {
      blogs: Object.entries(links).map(([name, link]) => entry(name, link)),
      total: Object.keys(links).length,
    },
  });
  [listed, open] = await Promise.all([
    siteWith({ IMAGE_HOSTS: host.host, IMAGE_FETCH_TIMEOUT_MS: "1000" }),
    siteWith({}),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([listed?.stop(), open?.stop(), backend?.close(), host?.close()]);
  for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
});

describe("images from the site's own origin", () => {
  it("a card offers AVIF, WebP and JPEG at 80 and 160 px, each served as what it says, immutable, made from one fetch", async () => {
    const copies = await copiesOn(listed, "/blog", sources().pin);
    expect(copies.map((copy) => copy.split("/").at(-1)).sort()).toEqual(
      ["160x160", "80x80"].flatMap((box) => [`${box}.avif`, `${box}.jpeg`, `${box}.webp`]),
    );
    const answers = await Promise.all(copies.map((copy) => fetch(`${listed.url}${copy}`)));
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = Buffer.from(await answer.arrayBuffer());
      const { width, height, format } = await sharp(bytes).metadata();
      const [, w, h, type] = /(\d+)x(\d+)\.(\w+)$/.exec(copies[index]!)!;
      expect(answer.headers.get("content-type")).toBe(`image/${type}`);
      // sharp calls AVIF "heif", its container; the file type box names the brand.
      expect({ width, height, format }).toEqual({
        width: Number(w),
        height: Number(h),
        format: type === "avif" ? "heif" : type,
      });
      if (type === "avif") expect(bytes.subarray(4, 12).toString("latin1")).toBe("ftypavif");
    }
    expect(host.calls()["/pin/server-test.jpg"], "one fetch of the source for all six copies").toBe(1);
  });

  it("an address changed in any part is not served", async () => {
    const [copy] = await copiesOn(listed, "/blog", sources().pin);
    const forged = [
      // One character of the signature changed.
      copy!.replace(/\/img\/([\w-])/, (_whole, first: string) => `/img/${first === "A" ? "B" : "A"}`),
      copy!.replace(/\/\d+x\d+\./, "/160x160."),
      copy!.replace(
        Buffer.from(sources().pin).toString("base64url"),
        Buffer.from(`${host.url}/pin/other.jpg`).toString("base64url"),
      ),
      "/img/not-even-close",
    ];
    for (const address of forged) expect((await fetch(`${listed.url}${address}`)).status, address).toBe(404);
    expect(host.calls()["/pin/other.jpg"]).toBeUndefined();
  });

  it("the article page offers a 64 px thumbnail and hero widths, and keeps the original link for View on Pinterest and og:image", async () => {
    const html = await (await fetch(`${listed.url}/blog/backend-article-1`)).text();
    const link = `${host.url}/pin/article-1.jpg`;
    const copies = await copiesOn(listed, "/blog/backend-article-1", link);
    expect(copies.map((copy) => copy.split("/").at(-1)).sort()).toEqual(
      ["128x128", "64x64", "1200x800", "480x320", "800x533"]
        .flatMap((box) => [`${box}.avif`, `${box}.jpeg`, `${box}.webp`])
        .sort(),
    );
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain(`property="og:image" content="${link}"`);
    expect(html).not.toMatch(new RegExp(`src(set)?="${link}`));
  });
});

describe("sources that are refused or fail", () => {
  it.each([
    ["a source over the pixel limit (50 megapixels)", "huge", 413],
    ["a source that is not an image", "notImage", 415],
    ["a dead link", "dead", 404],
    ["a redirect to a private address", "redirectToPrivate", 403],
  ] as const)("%s gives a clear 4xx, one log line, and pages without the image", async (_name, key, status) => {
    const link = sources()[key];
    const copies = await copiesOn(listed, "/blog", link);
    expect(copies.length).toBe(6);
    const answers = await Promise.all(copies.map((copy) => fetch(`${listed.url}${copy}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(status));
    expect(await answers[0]!.text()).toMatch(/^Image source unavailable: .+/);
    expect(
      listed
        .output()
        .split("\n")
        .filter((line) => line.includes(link) && line.includes("refused")),
    ).toHaveLength(1);
    expect(await copiesOn(listed, "/blog", link), "left out of the next page").toEqual([]);
    expect(await copiesOn(listed, "/blog", sources().pin), "other images stay").toHaveLength(6);
  });

  it("a slow source is given up at the time limit, while pages and other images keep answering", async () => {
    const [slowCopy] = await copiesOn(listed, "/blog", sources().slow);
    const [pinCopy] = await copiesOn(listed, "/blog", sources().pin);
    const order: string[] = [];
    const slow = fetch(`${listed.url}${slowCopy}`).then((answer) => (order.push("slow image"), answer.status));
    const page = fetch(`${listed.url}/blog/backend-article-2`).then((answer) => (order.push("page"), answer.status));
    const other = fetch(`${listed.url}${pinCopy}`).then((answer) => (order.push("other image"), answer.status));
    expect(await Promise.all([slow, page, other])).toEqual([404, 200, 200]);
    expect(order.at(-1)).toBe("slow image");
  });

  it.each([
    ["the image host on 127.0.0.1", "pin"],
    ["the cloud metadata address 169.254.169.254", "metadata"],
    ["a name that resolves to loopback", "localhost"],
  ] as const)("without IMAGE_HOSTS, %s is refused with 403 and never contacted", async (_name, key) => {
    const before = { ...host.calls() };
    const copies = await copiesOn(open, "/blog", sources()[key]);
    expect(copies.length).toBe(6);
    for (const copy of copies) expect((await fetch(`${open.url}${copy}`)).status).toBe(403);
    expect(host.calls()).toEqual(before);
    expect(await copiesOn(open, "/blog", sources()[key])).toEqual([]);
  });
});
