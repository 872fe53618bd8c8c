// Shared expectations for the blog browser tests: the embedded articles (read from content/blog, so
// the tests follow the content), the fake backend's articles, and small page helpers.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFrontMatter } from "../../app/blog/front-matter";
import type { Locator, Page, Request, Route } from "@playwright/test";
import { boxName, boxes, IMAGE_PATH_PREFIX, parseVariantPath } from "../../app/images/image-variants";
import { makeArticles } from "../support/fake-backend.mjs";
import { expect } from "./fixtures";

export const PAGE_SIZE = 10;
export const MAX_PAGE_LINKS = 5;

export type Article = {
  slug: string;
  metaTitle: string;
  metaDescription: string;
  date: string;
  pinterestImageLink?: string;
  youtubeShortsUrl?: string;
  shortTailKeywords?: string;
  longTailKeywords?: string;
  body: string;
};

const contentDir = fileURLToPath(new URL("../../content/blog/", import.meta.url));

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;

function readEmbedded(): Article[] {
  const list: Article[] = [];
  for (const name of readdirSync(contentDir)
    .filter((file) => file.endsWith(".md"))
    .sort()) {
    const { data, content } = parseFrontMatter(readFileSync(path.join(contentDir, name), "utf8"));
    const date = String(data.date ?? "");
    const metaTitle = text(data.metaTitle);
    if (!metaTitle) continue;
    list.push({
      slug: name.slice(0, -3),
      metaTitle: metaTitle.trim(),
      metaDescription: text(data.metaDescription) ?? "",
      date,
      pinterestImageLink: text(data.pinterestImageLink),
      youtubeShortsUrl: text(data.youtubeShortsUrl),
      shortTailKeywords: text(data.shortTailKeywords),
      longTailKeywords: text(data.longTailKeywords),
      body: content.trim(),
    });
  }
  // Newest first (the backend's order).
  return list.sort((a, b) => (Date.parse(b.date) || 0) - (Date.parse(a.date) || 0) || a.slug.localeCompare(b.slug));
}

/** The demo site's articles, newest first. */
export const embedded: Article[] = readEmbedded();

/** The fake backend's articles, newest first (backend-article-1 … backend-article-23). */
export const backend: Article[] = makeArticles(23).map((item) => ({
  slug: item.slug,
  metaTitle: item.metaTitle,
  metaDescription: item.metaDescription,
  date: item.date,
  pinterestImageLink: item.pinterestImageLink ?? undefined,
  youtubeShortsUrl: item.youtubeShortsUrl ?? undefined,
  shortTailKeywords: text(item.shortTailKeywords),
  longTailKeywords: text(item.longTailKeywords),
  body: item.blog,
}));

/** What an /img/ address shows: source link, box ("80x80") and format, or the address itself if not one. */
export function imageAddress(url: string): string {
  const pathname = new URL(url, "http://site").pathname;
  const address = pathname.startsWith(IMAGE_PATH_PREFIX)
    ? parseVariantPath(pathname.slice(IMAGE_PATH_PREFIX.length))
    : undefined;
  return address ? `${address.source} ${boxName(address.box)}.${address.format}` : url;
}

/** The candidates of a `srcset`, each as imageAddress() describes it, with its descriptor. */
const candidates = (srcset: string | null) =>
  (srcset ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [url = "", descriptor = ""] = entry.split(/\s+/);
      return `${imageAddress(url)} ${descriptor}`;
    });

export type ShownImage = { src: string; jpeg: string[]; webp: string[]; avif: string[]; sizes: string | null };

/** What an <img> in a <picture> offers, decoded: the AVIF and WebP <source>s, the JPEG srcset and src. */
export async function shownImage(image: Locator): Promise<ShownImage> {
  const raw = await image.evaluate((element: HTMLImageElement) => ({
    src: element.getAttribute("src") ?? "",
    jpeg: element.getAttribute("srcset"),
    webp: element.parentElement?.querySelector('source[type="image/webp"]')?.getAttribute("srcset") ?? null,
    avif: element.parentElement?.querySelector('source[type="image/avif"]')?.getAttribute("srcset") ?? null,
    sizes: element.getAttribute("sizes"),
  }));
  return {
    src: imageAddress(raw.src),
    jpeg: candidates(raw.jpeg),
    webp: candidates(raw.webp),
    avif: candidates(raw.avif),
    sizes: raw.sizes,
  };
}

/** What the pages offer for `link` in each place: 1x and 2x of the round images, three hero widths. */
export function expectedImage(link: string, place: "card" | "articleThumbnail" | "hero"): ShownImage {
  const list = boxes[place];
  const descriptor = (box: { width: number }) =>
    place === "hero" ? `${box.width}w` : `${box.width / list[0]!.width}x`;
  const of = (format: string) => list.map((box) => `${link} ${boxName(box)}.${format} ${descriptor(box)}`);
  const fallback = place === "hero" ? list[1]! : list[0]!;
  return {
    src: `${link} ${boxName(fallback)}.jpeg`,
    jpeg: of("jpeg"),
    webp: of("webp"),
    avif: of("avif"),
    sizes: place === "hero" ? "(min-width: 56rem) 56rem, 100vw" : null,
  };
}

/** A glob for every copy of `link`, for page.route(). */
export function copiesOf(link: string): string {
  return `**/img/*/*/${Buffer.from(link).toString("base64url")}/*`;
}

export const pageCount = (list: Article[]) => Math.ceil(list.length / PAGE_SIZE);
export const pageOf = (list: Article[], page: number) => list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
export const pageHref = (page: number) => (page <= 1 ? "/blog" : `/blog?page=${page}`);

/** The spec's rule: keywords split on commas, trimmed, empties dropped. */
export function keywords(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((keyword) => keyword.trim())
    .filter(Boolean);
}

/** The rule: words (between spaces, in these English bodies) over 230 a minute, rounded up; at least one. */
export function readingMinutes(body: string): number {
  const words = body.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
  return Math.max(1, Math.ceil(words / 230));
}

/** The spec's rule: a video only for a shorts path or a youtu.be link followed by an id, on the provider's own hosts. */
export function videoId(url: string | undefined): string | undefined {
  return url
    ? /^https?:\/\/(?:(?:www\.|m\.)?youtube\.com\/shorts\/|youtu\.be\/)([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(url)?.[1]
    : undefined;
}

const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2024-08-06" → "August 6, 2024", the day as it is in UTC. */
export function longDate(date: string): string {
  const day = new Date(Date.parse(date));
  return `${months[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;
}

/** Pick one article that fits, or fail loudly: the content no longer has such an article. */
export function pick(list: Article[], description: string, fits: (article: Article) => boolean): Article {
  const found = list.find(fits);
  if (!found) throw new Error(`no article ${description} in the test content`);
  return found;
}

/** Markdown headings of a level, outside fenced code. */
export function markdownHeadings(markdown: string, level: 1 | 2 | 3): string[] {
  let fenced = false;
  const found: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (match && match[1]!.length === level) found.push(match[2]!);
  }
  return found;
}

/** Strips inline markdown (emphasis, code, links) to the text a reader sees. */
export function plainInline(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]/g, "")
    .trim();
}

export function decodeHtml(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The <title> and <meta name="description"> of a server-rendered HTML document. */
export function headOf(html: string): { titles: string[]; descriptions: string[] } {
  const head = html.split(/<\/head>/i)[0] ?? "";
  const titles = [...head.matchAll(/<title[^>]*>([\s\S]*?)<\/title>/gi)].map((match) => decodeHtml(match[1]!));
  const descriptions = [...head.matchAll(/<meta\b[^>]*>/gi)]
    .map((match) => match[0])
    .filter((tag) => /\bname\s*=\s*"description"/i.test(tag))
    .map((tag) => decodeHtml(/\bcontent\s*=\s*"([^"]*)"/i.exec(tag)?.[1] ?? ""));
  return { titles, descriptions };
}

/**
 * Holds every request matching `pattern` until `release()`; `held` resolves once one was caught.
 * For the loading states: the page waits on its data while the test looks at it.
 */
export async function holdRequests(page: Page, pattern: string | RegExp) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let caught!: (request: Request) => void;
  const held = new Promise<Request>((resolve) => (caught = resolve));
  const handler = async (route: Route) => {
    caught(route.request());
    await released;
    await route.fallback().catch(() => undefined);
  };
  await page.route(pattern, handler);
  return {
    held,
    release: async () => {
      release();
      await page.unroute(pattern, handler);
    },
  };
}

/** Waits until React has hydrated the page (the root layout marks <html data-hydrated>). */
export async function hydrated(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** The cards of the blog list: one link per article. */
export function cardLinks(page: Page): Locator {
  return page.getByRole("main").getByRole("listitem").getByRole("link");
}

export function pagination(page: Page): Locator {
  return page.getByRole("navigation", { name: "Pagination" });
}

/** Toast notifications: announced alerts or statuses outside the page's main content. */
export function toasts(page: Page): Locator {
  return page.locator(':is([role="alert"], [role="status"]):not(main *)');
}
