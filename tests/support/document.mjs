// A page as the reader's browser shows it: the document up to its end tag. What follows is Remix's data for
// the scripts (decision 018), which holds the site's translations, all of them (decision 028): a check for a message in
// the raw response would find every message there, shown or not.

/**
 * @param {string} html a page as served
 * @returns {string} the document part, `</html>` included
 */
export function documentPart(html) {
  const end = html.indexOf("</html>");
  if (end < 0) throw new Error(`the page has no </html>: ${html.slice(0, 200)}`);
  return html.slice(0, end + "</html>".length);
}
