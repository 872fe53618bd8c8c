import { open } from "node:fs/promises";
import { LRUCache } from "lru-cache";
import type { AboutSource } from "~/site/about-file";
import { renderArticleBody, type RenderMarkdown } from "./article-body.server";

/**
 * A site's own About text (ABOUT_FILE, or `_about.md` among its embedded articles): markdown in the
 * community's own words in place of its tradition's two paragraphs, rendered as an article body is
 * (react-markdown in the worker pool, raw HTML inert, links limited), once per site configuration.
 */

/** The most an About text may be: a few paragraphs, not a book. A larger file is not shown, and the log says why. */
export const ABOUT_MAX_BYTES = 32 * 1024;

/** The text of the file, or why it is not shown; undefined when there is no such file and none was asked for. */
async function readAbout({ file, given }: AboutSource): Promise<{ text: string } | { problem: string } | undefined> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if (!given && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { problem: (error as Error).message };
  }
  try {
    // One byte more than allowed tells a file at the bound from a larger one, without reading the rest.
    const buffer = Buffer.alloc(ABOUT_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > ABOUT_MAX_BYTES) return { problem: `it is larger than ${ABOUT_MAX_BYTES / 1024} KB` };
    const text = new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, bytesRead));
    return { text };
  } catch (error) {
    return { problem: error instanceof TypeError ? "it is not UTF-8 text" : (error as Error).message };
  } finally {
    await handle.close();
  }
}

/**
 * The text's headings as headings of the About section (h3, under its h2): the page keeps one h1. The HTML is
 * react-markdown's, where a `<` of the text is written `&lt;`, so every `<h1`…`<h6` is a tag.
 */
const headingsUnderAbout = (html: string) => html.replace(/<(\/?)h[1-6]\b/g, "<$1h3");

// By site configuration (its key): a reload of the sites file makes new keys, so an edited file is read again.
const rendered = new LRUCache<string, Promise<string | undefined>>({ max: 1000 });

/**
 * The About text of a site as HTML, or undefined for its tradition's words: no file, or one that cannot be
 * shown (one warning line says why). A render refused by a busy server is not kept, so the next page tries again.
 */
export function aboutHtml(
  site: { key: string; label: string; about: AboutSource },
  render?: RenderMarkdown,
): Promise<string | undefined> {
  let html = rendered.get(site.key);
  if (!html) {
    html = (async () => {
      const read = await readAbout(site.about);
      if (!read) return undefined;
      if ("problem" in read) {
        console.warn(`Site ${site.label}: the About text ${site.about.file} is not shown: ${read.problem}`);
        return undefined;
      }
      return read.text.trim() ? headingsUnderAbout((await renderArticleBody(read.text, render)).html) : undefined;
    })();
    html.catch(() => rendered.delete(site.key));
    rendered.set(site.key, html);
  }
  return html;
}
