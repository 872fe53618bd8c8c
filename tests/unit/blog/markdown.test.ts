import { describe, expect, it } from "vitest";
import { renderMarkdown } from "~/blog/markdown.server";

describe("article body rendering", () => {
  it("renders headings, paragraphs, quotes and both kinds of list", () => {
    const html = renderMarkdown(
      "# One\n\n## Two\n\n### Three\n\nText *soft* **strong**.\n\n> Quote\n\n- a\n- b\n\n1. x\n2. y\n",
    );
    expect(html).toContain("<h1>One</h1>");
    expect(html).toContain("<h2>Two</h2>");
    expect(html).toContain("<h3>Three</h3>");
    expect(html).toContain("<p>Text <em>soft</em> <strong>strong</strong>.</p>");
    expect(html).toMatch(/<blockquote>\s*<p>Quote<\/p>\s*<\/blockquote>/);
    expect(html).toMatch(/<ul>\s*<li>a<\/li>\s*<li>b<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<ol>\s*<li>x<\/li>\s*<li>y<\/li>\s*<\/ol>/);
  });

  it("opens links in a new tab without an opener", () => {
    expect(renderMarkdown("[site](https://example.org/a)")).toContain(
      '<a href="https://example.org/a" target="_blank" rel="noopener noreferrer">site</a>',
    );
  });

  it("keeps only http, https, irc, ircs, mailto and xmpp links", () => {
    for (const href of [
      "https://a.org/",
      "http://a.org/",
      "irc://irc.example/zen",
      "ircs://irc.example/zen",
      "mailto:hi@example.org",
      "xmpp:zen@example.org",
    ]) {
      expect(renderMarkdown(`[x](${href})`)).toContain(`href="${href}"`);
    }
    for (const href of ["javascript:alert(1)", "data:text/html,hi", "vbscript:x", "JaVaScRiPt:alert(1)"]) {
      const html = renderMarkdown(`[x](${href})`);
      expect(html).toContain('href=""');
      expect(html.toLowerCase()).not.toContain("script:");
    }
  });

  it("leaves raw HTML as inert text", () => {
    const html = renderMarkdown('Hello <img src=x onerror="alert(1)"> <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/i);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});
