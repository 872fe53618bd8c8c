import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ABOUT_FILE_NAME } from "~/site/about-file";
import { dateTime } from "./dates";
import { splitKeywords } from "./keywords";
import { PAGE_SIZE } from "./pagination";
import { parseFrontMatter, type FrontMatterFile } from "./front-matter";
import { articleSchema, describeSchemaError } from "./schema.server";
import type { BlogSource } from "./source.server";
import type { BlogArticle, BlogEntry } from "./types";

type Stored = { entry: BlogEntry; article: BlogArticle; time: number };

const slugPattern = /^[a-z0-9][a-z0-9-]{0,199}$/;

/**
 * The embedded articles: `<dir>/<slug>.md`, front matter with the backend's fields. Read once; a file
 * that does not fit is skipped with a warning so one typo cannot take the blog down.
 */
export function createFileSource(dir: string): BlogSource {
  let loaded: Promise<Stored[]> | undefined;
  const all = () => (loaded ??= load(dir));

  return {
    async listPage(_domain, page) {
      const stored = await all();
      const start = (page - 1) * PAGE_SIZE;
      return { blogs: stored.slice(start, start + PAGE_SIZE).map((item) => item.entry), total: stored.length };
    },

    async article(slug) {
      const stored = await all();
      return stored.find((item) => item.entry.slug === slug)?.article ?? null;
    },
  };
}

async function load(dir: string): Promise<Stored[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".md")).sort();
  } catch (error) {
    console.warn(`No embedded articles: cannot read ${dir} (${(error as Error).message})`);
    return [];
  }
  const stored: Stored[] = [];
  for (const name of names) {
    // The site's About text, not an article (about-text.server.ts).
    if (name === ABOUT_FILE_NAME) continue;
    const slug = name.slice(0, -3);
    if (!slugPattern.test(slug)) {
      console.warn(`Skipping ${name}: file names must be lower-case words joined by hyphens`);
      continue;
    }
    let file: FrontMatterFile;
    try {
      file = parseFrontMatter(await readFile(path.join(dir, name), "utf8"));
    } catch (error) {
      // Unreadable, or front matter that is not YAML data: this file only, not the whole blog.
      console.warn(`Skipping ${name}: ${(error as Error).message.split("\n")[0]}`);
      continue;
    }
    const { data, content } = file;
    const parsed = articleSchema.safeParse({ ...data, blog: content.trim() });
    if (!parsed.success) {
      console.warn(`Skipping ${name}: ${describeSchemaError(parsed.error)}`);
      continue;
    }
    const article = parsed.data;
    stored.push({
      article,
      time: dateTime(article.date) ?? 0,
      entry: {
        id: slug,
        slug,
        metaTitle: article.metaTitle,
        metaDescription: article.metaDescription,
        pinterestImageLink: article.pinterestImageLink,
        date: article.date || undefined,
        // For the read-next suggestions (app/search/read-next.ts): the backend's list has none.
        keywords: [...splitKeywords(article.shortTailKeywords), ...splitKeywords(article.longTailKeywords)],
      },
    });
  }
  // Newest first, as the backend lists them.
  return stored.sort((a, b) => b.time - a.time || a.entry.slug.localeCompare(b.entry.slug));
}
