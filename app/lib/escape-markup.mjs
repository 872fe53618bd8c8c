// Shared by the HTTP server (server/error-page.mjs, plain JavaScript) and the app (the sitemap).

/**
 * Escapes text for HTML or XML content and attribute values.
 * @param {string} value
 * @returns {string}
 */
export function escapeMarkup(value) {
  return value.replace(/[<>&'"]/g, (char) =>
    char === "<" ? "&lt;" : char === ">" ? "&gt;" : char === "&" ? "&amp;" : char === "'" ? "&apos;" : "&quot;",
  );
}
