import { Temporal } from "@js-temporal/polyfill";
import { Article, Hashtag, Image, LanguageString, PUBLIC_COLLECTION } from "@fedify/fedify/vocab";
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
 * An article as the social web shows it: an `Article` with its title (`name`), its description (`summary`
 * and, with a link to the page, `content`, in the site's language as `contentMap` too), the page's address
 * (`url`), its picture and its keywords as hashtags. Mastodon shows the title and a link to the page;
 * Threads and Flipboard show the article's title, picture and description.
 */
export function articleObject(article: ArticleView, to: ArticleAddresses, lang: string): Article {
  const page = to.page.href;
  const content = `<p>${escapeMarkup(article.metaDescription)}</p><p><a href="${escapeMarkup(page)}">${escapeMarkup(page)}</a></p>`;
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
    summaries: [article.metaDescription, new LanguageString(article.metaDescription, lang)],
    contents: [content, new LanguageString(content, lang)],
    url: to.page,
    published: article.published ? instantOf(article.published.iso) : undefined,
    image: image ? new Image({ url: image, name: article.metaTitle }) : undefined,
    attachments: image ? [new Image({ url: image, name: article.metaTitle })] : [],
    tags,
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
