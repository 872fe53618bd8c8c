import { Temporal } from "@js-temporal/polyfill";
import { Article, Create, Hashtag, Image, LanguageString, PUBLIC_COLLECTION } from "@fedify/fedify/vocab";
import type { ArticleView } from "~/blog/types";
import { escapeMarkup } from "~/document/escape-markup";
import { keywordPath } from "~/search/keyword-key";

/** The addresses an article's social-web form names: its own, its page's, and its author's. */
export type ArticleAddresses = { id: URL; page: URL; actor: URL; followers: URL; origin: string };

/** A hashtag as Mastodon writes one: the keyword's letters and digits, words joined in CamelCase. */
export function hashtagOf(keyword: string): string | undefined {
  const words = keyword
    .normalize("NFC")
    .split(/[^\p{L}\p{N}\p{M}_]+/u)
    .filter(Boolean);
  const joined = words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("");
  return joined ? `#${joined.slice(0, 100)}` : undefined;
}

/**
 * An article as the social web shows it: an `Article` with its title (`name`), the page's address (`url`),
 * its picture and its keywords as hashtags, and as `content` (in the site's language as `contentMap` too)
 * the title and the description. Mastodon turns an Article into a post of its `content` with the `url`
 * after it, and reads `summary` as a content warning, which would hide the post behind the description:
 * so there is no `summary`, and no link in the content, which Mastodon adds itself (docs/fediverse.md).
 * `updated`, on an article that changed: Mastodon edits its post only when the object carries it.
 */
export function articleObject(
  article: ArticleView,
  to: ArticleAddresses,
  lang: string,
  updated?: Temporal.Instant,
): Article {
  const content = `<p><strong>${escapeMarkup(article.metaTitle)}</strong></p><p>${escapeMarkup(article.metaDescription)}</p>`;
  const keywords = [...new Set([...article.keywords.shortTail, ...article.keywords.longTail])];
  const tags = keywords.flatMap((keyword) => {
    const name = hashtagOf(keyword);
    return name ? [new Hashtag({ name, href: new URL(keywordPath(keyword), to.origin) })] : [];
  });
  const image = article.pinterestImageLink ? safeUrl(article.pinterestImageLink, to.origin) : undefined;
  return new Article({
    id: to.id,
    attribution: to.actor,
    to: PUBLIC_COLLECTION,
    cc: to.followers,
    names: [article.metaTitle, new LanguageString(article.metaTitle, lang)],
    contents: [content, new LanguageString(content, lang)],
    url: to.page,
    published: article.published ? instantOf(article.published.iso) : undefined,
    updated,
    image: image ? new Image({ url: image, name: article.metaTitle }) : undefined,
    attachments: image ? [new Image({ url: image, name: article.metaTitle })] : [],
    tags,
  });
}

/**
 * An article's Create, the same in the outbox and in what followers are sent: one id, so a server that has
 * seen one of them knows the other.
 */
export function createOf(object: Article, actor: URL): Create {
  return new Create({
    id: new URL(`${object.id!.href}#create`),
    actor,
    to: object.toId,
    cc: object.ccId,
    published: object.published,
    object,
  });
}

/** The article's date as an instant: midnight UTC of its day when it has no time. */
export function instantOf(iso: string): Temporal.Instant | undefined {
  try {
    return Temporal.Instant.from(/T/.test(iso) ? iso : `${iso}T00:00:00Z`);
  } catch {
    return undefined;
  }
}

/** An image address, absolute, when it is one a reader's app may fetch (http or https). */
function safeUrl(link: string, origin: string): URL | undefined {
  try {
    const url = new URL(link, origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}
