/** What the pages receive from the blog layer: plain data, safe to send to the browser. */

export type BlogEntry = {
  id: string;
  slug: string;
  metaTitle: string;
  metaDescription: string;
  pinterestImageLink?: string;
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

/** An article ready to show: the markdown already rendered to HTML on the server. */
export type ArticleView = Omit<BlogArticle, "blog"> & {
  slug: string;
  bodyHtml: string;
};
