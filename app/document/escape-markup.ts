// Shared by the HTTP server (server/error-page.ts) and the app (the sitemap).

/** Escapes text for HTML or XML content and attribute values. */
export function escapeMarkup(value: string): string {
  return value.replace(/[<>&'"]/g, (char) =>
    char === "<" ? "&lt;" : char === ">" ? "&gt;" : char === "&" ? "&amp;" : char === "'" ? "&apos;" : "&quot;",
  );
}
