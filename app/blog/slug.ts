/**
 * Which slugs the site can have, one rule for the list's entries and the article's address: a slug that
 * is blank, longer than this, or `.` or `..` (which every URL parser reads as a step up the path, so no
 * address can name them) is no article's. A list entry with one is left out; its address is a 404
 * without a backend call.
 */
export const MAX_SLUG_LENGTH = 300;

export function isPossibleSlug(slug: string): boolean {
  return slug.trim().length > 0 && slug.length <= MAX_SLUG_LENGTH && slug !== "." && slug !== "..";
}

const ARTICLE_PATH = /^\/blog\/([^/]+)\/?$/;

/**
 * The slug in an article's address (`/blog/{slug}`, as sent), decoded once: `/blog/a%252Fb` is the slug
 * `a%2Fb`, `/blog/a%2Fb` the slug `a/b`, as the list's links (encodeURIComponent) write them. The
 * router's own parameter is decoded twice for `%2F` (it turns the `%2F` left by its first pass into `/`),
 * so it cannot tell these two apart. Undefined when the path is no article's or cannot be decoded.
 */
export function slugFromPath(pathname: string): string | undefined {
  const match = ARTICLE_PATH.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}
