import { escapeMarkup } from "./escape-markup";

export function sitemapXml(urls: string[]): string {
  const body = urls.map((url) => `  <url><loc>${escapeMarkup(url)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}
