import { describe, expect, it } from "vitest";
import { bareHost, isListedHost, isPublicAddress } from "~/images/image-hosts";
import {
  boxes,
  formatVariantPath,
  IMAGE_FORMATS,
  IMAGE_PATH_PREFIX,
  parseVariantPath,
  srcSet,
} from "~/images/image-variants";
import { VARIANT_FORMATS } from "~/metrics/record.server";

describe("image addresses", () => {
  const address = {
    signature: "abcdefghijklmnopqrstuv",
    version: "r",
    source: "https://i.pinimg.com/736x/aa/bb/cc/pin.jpg?x=1&y=ü",
    box: { width: 160, height: 160 },
    format: "webp" as const,
  };

  it("read back what they were written from, source link included", () => {
    const path = formatVariantPath(address);
    expect(path.startsWith(IMAGE_PATH_PREFIX)).toBe(true);
    expect(path.endsWith("/160x160.webp")).toBe(true);
    expect(parseVariantPath(path.slice(IMAGE_PATH_PREFIX.length))).toEqual(address);
  });

  it("name AVIF, WebP and JPEG copies", () => {
    for (const format of ["avif", "webp", "jpeg"] as const) {
      const path = formatVariantPath({ ...address, format });
      expect(path.endsWith(`/160x160.${format}`)).toBe(true);
      expect(parseVariantPath(path.slice(IMAGE_PATH_PREFIX.length))).toEqual({ ...address, format });
    }
  });

  it("name the formats the metrics count copies by, in the same order", () => {
    expect(VARIANT_FORMATS).toEqual(IMAGE_FORMATS);
  });

  it("only name the boxes and formats the pages use", () => {
    const rest = formatVariantPath(address).slice(IMAGE_PATH_PREFIX.length);
    expect(parseVariantPath(rest.replace("160x160", "4000x4000"))).toBeUndefined();
    expect(parseVariantPath(rest.replace(".webp", ".gif"))).toBeUndefined();
    expect(parseVariantPath(rest.replace(".webp", ".png"))).toBeUndefined();
    expect(parseVariantPath("../../etc/passwd")).toBeUndefined();
    expect(parseVariantPath("")).toBeUndefined();
  });

  it("offer 1x and 2x of the round thumbnails, and widths of the hero", () => {
    const at = (list: typeof boxes.card) => list.map((box) => ({ box, url: `/img/${box.width}` }));
    expect(srcSet(at(boxes.card), "density")).toBe("/img/80 1x, /img/160 2x");
    expect(srcSet(at(boxes.articleThumbnail), "density")).toBe("/img/64 1x, /img/128 2x");
    expect(srcSet(at(boxes.hero), "width")).toBe("/img/480 480w, /img/800 800w, /img/1200 1200w");
  });
});

describe("image source addresses", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.215.14", "151.101.0.84", "2606:4700::6810:84e5"])("allows the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("lists hosts with or without a port", () => {
    expect(isListedHost(new URL("http://127.0.0.1:5105/a.jpg"), ["127.0.0.1:5105"])).toBe(true);
    expect(isListedHost(new URL("http://127.0.0.1:5106/a.jpg"), ["127.0.0.1:5105"])).toBe(false);
    expect(isListedHost(new URL("https://images.lan/a.jpg"), ["images.lan"])).toBe(true);
    expect(isListedHost(new URL("https://images.lan:8443/a.jpg"), ["images.lan"])).toBe(true);
    expect(isListedHost(new URL("https://images.lan/a.jpg"), ["images.lan:443"])).toBe(true);
    expect(isListedHost(new URL("https://evil.images.lan/a.jpg"), ["images.lan"])).toBe(false);
    expect(bareHost(new URL("http://[::1]:80/"))).toBe("::1");
  });
});
