import type { Page } from "@playwright/test";

/**
 * Collects what the browser reports about the Content-Security-Policy: console messages (with or without
 * JavaScript) and securitypolicyviolation events, recorded by a script that runs before the page's own
 * (`events()` is null where scripts do not run).
 */
export async function watchPolicy(page: Page) {
  const consoleMessages: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) consoleMessages.push(message.text());
  });
  await page.addInitScript(() => {
    const own = window as unknown as { __violations: string[] };
    own.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      own.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`);
    });
  });
  return {
    consoleMessages,
    events: () => page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? null),
  };
}
