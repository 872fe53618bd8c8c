import type { ArticleImages, ImageCandidates } from "~/images/responsive-image";

/** What the pages receive from the blog layer: plain data, safe to send to the browser. */

export type BlogEntry = {
  id: string;
  slug: string;
  metaTitle: string;
  metaDescription: string;
  pinterestImageLink?: string;
  /** Publication date, when the list gives one (the spec's list does not; the embedded articles do). */
  date?: string;
  /** Added by the server when there is an image link that is not known dead: the copies to show. */
  image?: ImageCandidates;
  /** Short- and long-tail keywords, when the list gives them (the embedded articles do, the backend's list does not). */
  keywords?: string[];
};

export type BlogListPage = {
  blogs: BlogEntry[];
  total: number;
};

export type BlogArticle = {
  metaTitle: string;
  metaDescription: string;
  date: string;
  blog: string;
  pinterestImageLink?: string;
  youtubeShortsUrl?: string;
  shortTailKeywords?: string;
  longTailKeywords?: string;
};

/**
 * An article ready to show, worked out once on the server per fetched version: the markdown rendered
 * to HTML, the date formatted, the video and keywords extracted. The browser gets results, not code.
 */
export type ArticleView = Omit<BlogArticle, "blog"> & {
  slug: string;
  bodyHtml: string;
  /** Present when part or all of the body is plain text, being too large or too complex to render; `cut`: its end is left out. */
  bodyShortened?: { cut: boolean };
  /** "January 5, 2024" and its ISO form, when the date parses. */
  published?: { label: string; iso: string };
  /** The player's embed URL, when a video id could be extracted. */
  videoEmbedUrl?: string;
  keywords: { shortTail: string[]; longTail: string[] };
  /** Minutes to read the body as shown (app/blog/reading-time.ts). */
  readingMinutes: number;
  /** The image to show, when there is an image link (the link itself stays for "View on Pinterest"). */
  image?: ArticleImages;
};
