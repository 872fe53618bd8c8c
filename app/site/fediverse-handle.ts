/**
 * The name readers follow the site by on the social web (`@zen@example.org`): letters, digits and `_`, as
 * Mastodon allows in a username, at most 30 of them. Kept lowercase, as servers compare handles so.
 */
export const HANDLE_PATTERN = /^[a-z0-9_]{1,30}$/;

/** FEDIVERSE_HANDLE when unset: the product's first word in ASCII ("Zen Buddhism" → "zen"), else "blog". */
export function defaultHandle(product: string): string {
  const firstWord = product.trim().split(/\s+/)[0] ?? "";
  const ascii = firstWord
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, 30);
  return ascii || "blog";
}
