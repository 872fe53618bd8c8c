import { z } from "zod";
import type { BlogArticle, BlogListPage } from "./types";

/**
 * The backend's replies, checked before use. Optional fields may be missing or null. A link that is
 * not http(s) or site-relative is dropped rather than trusted: it ends up in href and src attributes.
 */

const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value?.trim() ? value : undefined));

const safeLink = z
  .string()
  .nullish()
  .transform((value) => {
    const link = value?.trim();
    if (!link) return undefined;
    if (link.startsWith("/") && !link.startsWith("//")) return link;
    try {
      const url = new URL(link);
      return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : undefined;
    } catch {
      return undefined;
    }
  });

const entrySchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  slug: z.string().trim().min(1).max(300),
  metaTitle: z.string().trim().min(1),
  metaDescription: optionalText.transform((value) => value ?? ""),
  pinterestImageLink: safeLink,
  date: optionalText,
});

export const listSchema = z.object({
  blogs: z
    .array(entrySchema)
    .nullish()
    .transform((blogs) => blogs ?? []),
  total: z.number().int().nonnegative().nullish(),
}).transform((reply): BlogListPage => ({ blogs: reply.blogs, total: reply.total ?? reply.blogs.length }));

export const articleSchema = z
  .object({
    metaTitle: z.string().trim().min(1),
    metaDescription: optionalText,
    date: optionalText,
    blog: z.string().nullish(),
    pinterestImageLink: safeLink,
    youtubeShortsUrl: safeLink,
    shortTailKeywords: optionalText,
    longTailKeywords: optionalText,
  })
  .transform(
    (reply): BlogArticle => ({
      ...reply,
      metaDescription: reply.metaDescription ?? "",
      date: reply.date ?? "",
      blog: reply.blog ?? "",
    }),
  );

/** "No article" as opposed to a broken one: null, or an empty object. */
export function isNoArticle(body: unknown): boolean {
  return body === null || (typeof body === "object" && !Array.isArray(body) && Object.keys(body as object).length === 0);
}

/** A short, log-friendly reason a reply did not fit. */
export function describeSchemaError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}
