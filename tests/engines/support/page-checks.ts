// In-page expressions and waits the engine tests share. Expressions are source text (see engines.ts).
import type { EnginePage } from "./engines";

export const isHydrated = "document.documentElement.hasAttribute('data-hydrated')";

export const h1Text = "(document.querySelector('h1')?.textContent.trim() ?? '')";

/** Whether the page is wider than the viewport (a reader would scroll sideways). */
export const overflowsSideways = "document.documentElement.scrollWidth > window.innerWidth";

/** The visible toasts outside the main content (alerts and statuses), as text. */
export const toastTexts =
  "[...document.querySelectorAll('[role=alert], [role=status]')].filter((element) => !element.closest('main') && element.getClientRects().length > 0).map((element) => element.textContent.trim())";

/** Marks the document; the mark is there as long as no full page load replaced it. */
export const markDocument = "(window.__sameDocument = true)";
export const isSameDocument = "window.__sameDocument === true";

export async function waitForHydration(page: EnginePage) {
  await page.waitFor(isHydrated, "the page to hydrate");
}

/** The one message the site logs on purpose: the 404 page names the path it was asked for (app/components/NotFound.tsx). */
export const withoutNotFoundNotice = (problems: string[]) =>
  problems.filter((problem) => !problem.includes("404 Error: User attempted to access non-existent route"));

/** Waits until the address is `path` (path and query) and the page's h1 reads `heading`. */
export async function waitForPage(page: EnginePage, path: string, heading: string | RegExp) {
  const headingMatches =
    typeof heading === "string" ? `${h1Text} === ${JSON.stringify(heading)}` : `${heading.toString()}.test(${h1Text})`;
  await page.waitFor(
    `location.pathname + location.search === ${JSON.stringify(path)} && ${headingMatches}`,
    `${path} with its heading ${heading}`,
  );
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
