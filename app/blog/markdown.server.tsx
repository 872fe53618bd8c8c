import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import Markdown, { type Components } from "react-markdown";

/**
 * Renders an article body to HTML on the server, so react-markdown never reaches the browser.
 * react-markdown keeps raw HTML as inert text and its default URL filter already empties every link
 * that is not http, https, irc, ircs, mailto or xmpp.
 */
const components: Components = {
  a: ({ node: _node, ...props }: ComponentProps<"a"> & { node?: unknown }) => (
    <a {...props} target="_blank" rel="noopener noreferrer" />
  ),
  // Images in the body load lazily and never outgrow the column.
  img: ({ node: _node, ...props }: ComponentProps<"img"> & { node?: unknown }) => (
    <img {...props} alt={props.alt ?? ""} loading="lazy" decoding="async" className="h-auto max-w-full rounded-lg" />
  ),
};

export function renderMarkdown(markdown: string): string {
  return renderToStaticMarkup(<Markdown components={components}>{markdown}</Markdown>);
}
