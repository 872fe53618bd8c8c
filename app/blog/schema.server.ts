import { z } from "zod";
import { unicodeBurmese } from "~/i18n/zawgyi.server";
import { boundedChars, boundedText, FIELD_BOUNDS } from "./field-bounds";
import { splitKeywords } from "./keywords";
import { PAGE_SIZE } from "./pagination";
import { isPossibleSlug, MAX_SLUG_LENGTH } from "./slug";
import type { BlogArticle, BlogEntry, BlogListPage } from "./types";

/**
 * The backend's replies, checked before use. Optional fields may be missing or null. A link that is
 * not http(s) or site-relative is dropped rather than trusted: it ends up in href and src attributes.
 * Every other field is bounded here, once (field-bounds.ts, docs/decisions/041): whatever a reply holds,
 * what the site keeps of one article is a few hundred kilobytes. Texts a reader reads (title, description,
 * keywords, body) are then read as Unicode where they are Burmese in Zawgyi (docs/decisions/046): after
 * the bound, which so bounds what converting costs, and bounded again, as converting may lengthen them.
 */

/**
 * The longest image or video link kept, in bytes. An image's copies carry its link in their address
 * (base64url, 4/3 as long), so a much longer link would give addresses no server or proxy accepts
 * (431, 414); a longer link counts as none.
 */
export const MAX_LINK_LENGTH = 2048;

/** A text cut to `max`, read as Unicode where it is Zawgyi, and cut again. */
export const readableText = (value: string, max: number) => boundedText(unicodeBurmese(boundedText(value, max)), max);

/** An optional text, cut to `max`; blank counts as missing. */
const optionalText = (max: number, read = boundedText) =>
  z
    .string()
    .nullish()
    .transform((value) => (value?.trim() ? read(value, max) : undefined));

/** A text that must be there, trimmed, cut to `max` and read as Unicode where it is Zawgyi. */
const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .transform((value) => readableText(value, max));

const safeLink = z
  .string()
  .nullish()
  .transform((value) => {
    const link = value?.trim();
    if (!link || link.length > MAX_LINK_LENGTH) return undefined;
    const written = writtenLink(link);
    // Measured again as written out, in bytes: percent-encoding or UTF-8 can make a link several times longer.
    return written && Buffer.byteLength(written) <= MAX_LINK_LENGTH ? written : undefined;
  });

function writtenLink(link: string): string | undefined {
  if (link.startsWith("/") && !link.startsWith("//")) return link;
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

const entrySchema = z.object({
  id: z.union([z.string(), z.number()]).transform((id) => boundedChars(String(id), FIELD_BOUNDS.idChars)),
  slug: z.string().trim().min(1).max(MAX_SLUG_LENGTH).refine(isPossibleSlug, "no address can name this slug"),
  metaTitle: requiredText(FIELD_BOUNDS.titleChars),
  metaDescription: optionalText(FIELD_BOUNDS.descriptionChars, readableText).transform((value) => value ?? ""),
  pinterestImageLink: safeLink,
  date: optionalText(FIELD_BOUNDS.dateChars),
});

const listReplySchema = z.object({
  blogs: z
    .array(z.unknown())
    .nullish()
    .transform((blogs) => blogs ?? []),
  total: z.number().int().nonnegative().nullish(),
});

export type ListReading =
  { success: true; data: BlogListPage; notes: string[] } | { success: false; error: z.ZodError };

/**
 * A list reply as a page: its entries that fit, at most a page's worth (PAGE_SIZE), in their order. An
 * entry that does not fit (no slug, a title that is no text) is left out rather than failing the page:
 * it is that entry's problem. `notes` says what was left out, for one log line. The total stays the
 * backend's, or the entries kept when it gives none; a reply whose shape is wrong still fails.
 */
export function readListReply(body: unknown): ListReading {
  const reply = listReplySchema.safeParse(body);
  if (!reply.success) return { success: false, error: reply.error };
  const { blogs, total } = reply.data;
  const kept: BlogEntry[] = [];
  const dropped: string[] = [];
  let index = 0;
  // Entries past a page's worth are not even read: a reply of thousands costs no more than one of ten.
  for (; index < blogs.length && kept.length < PAGE_SIZE; index += 1) {
    const entry = entrySchema.safeParse(blogs[index]);
    if (entry.success) kept.push(entry.data);
    else dropped.push(describeSchemaError(entry.error, `blogs.${index}`));
  }
  const notes: string[] = [];
  if (dropped.length)
    notes.push(
      `left out ${dropped.length} ${dropped.length === 1 ? "entry" : "entries"} that did not fit (${dropped.slice(0, 3).join("; ")})`,
    );
  if (index < blogs.length) notes.push(`kept the first ${PAGE_SIZE} of ${blogs.length} entries`);
  return { success: true, data: { blogs: kept, total: total ?? kept.length }, notes };
}

export const articleSchema = z
  .object({
    metaTitle: requiredText(FIELD_BOUNDS.titleChars),
    metaDescription: optionalText(FIELD_BOUNDS.descriptionChars, readableText),
    date: optionalText(FIELD_BOUNDS.dateChars),
    blog: z
      .string()
      .nullish()
      .transform((body) =>
        boundedChars(unicodeBurmese(boundedChars(body ?? "", FIELD_BOUNDS.bodyChars)), FIELD_BOUNDS.bodyChars),
      ),
    pinterestImageLink: safeLink,
    youtubeShortsUrl: safeLink,
    shortTailKeywords: z.string().nullish(),
    longTailKeywords: z.string().nullish(),
  })
  .transform(({ shortTailKeywords, longTailKeywords, ...reply }): BlogArticle => {
    // A keyword in both groups shows once, with the short-tail ones.
    const seen = new Set<string>();
    const shortTail = splitKeywords(shortTailKeywords, FIELD_BOUNDS.keywordsPerGroup, seen, unicodeBurmese);
    const longTail = splitKeywords(longTailKeywords, FIELD_BOUNDS.keywordsPerGroup, seen, unicodeBurmese);
    return {
      ...reply,
      metaDescription: reply.metaDescription ?? "",
      date: reply.date ?? "",
      // Commas split keywords, so none is inside one: joined, they split back to the same list.
      ...(shortTail.length ? { shortTailKeywords: shortTail.join(", ") } : {}),
      ...(longTail.length ? { longTailKeywords: longTail.join(", ") } : {}),
    };
  });

/**
 * A reply that could not be read, as plain data that crosses a thread: why, and whether it was JSON that
 * does not fit (asking again gives the same) rather than no JSON at all (a gateway's error page, say).
 */
export type TextProblem = { ok: false; problem: string; ofContent: boolean };
/** A reply's text read as a list page. */
export type ListTextReading = { ok: true; page: BlogListPage; notes: string[] } | TextProblem;
/** A reply's text read as an article (null: none). */
export type ArticleTextReading = { ok: true; article: BlogArticle | null } | TextProblem;

export type ReplyKind = "list" | "article";
export type TextReading<K extends ReplyKind> = K extends "list" ? ListTextReading : ArticleTextReading;

/** A reply's text parsed and checked: here, or in the worker thread (markdown-worker.server.ts). */
export function readReplyText<K extends ReplyKind>(kind: K, text: string): TextReading<K> {
  return (kind === "list" ? readListText(text) : readArticleText(text)) as TextReading<K>;
}

export function readListText(text: string): ListTextReading {
  const body = parseJson(text);
  if (!body.ok) return body;
  const read = readListReply(body.value);
  return read.success
    ? { ok: true, page: read.data, notes: read.notes }
    : { ok: false, problem: `reply did not fit (${describeSchemaError(read.error)})`, ofContent: true };
}

export function readArticleText(text: string): ArticleTextReading {
  const body = parseJson(text);
  if (!body.ok) return body;
  if (isNoArticle(body.value)) return { ok: true, article: null };
  const read = articleSchema.safeParse(body.value);
  return read.success
    ? { ok: true, article: read.data }
    : { ok: false, problem: `reply did not fit (${describeSchemaError(read.error)})`, ofContent: true };
}

function parseJson(text: string): { ok: true; value: unknown } | TextProblem {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: `reply is not JSON (${JSON.stringify(text.slice(0, 60))})`, ofContent: false };
  }
}

/** "No article" as opposed to a broken one: null, or an empty object. */
export function isNoArticle(body: unknown): boolean {
  return (
    body === null || (typeof body === "object" && !Array.isArray(body) && Object.keys(body as object).length === 0)
  );
}

/** A short, log-friendly reason a reply did not fit. */
export function describeSchemaError(error: z.ZodError, prefix = ""): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[prefix, ...issue.path].filter((part) => part !== "").join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}
