// Checks shared by the home and not-found page tests.
import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Waits until the page has stopped scrolling, then checks the heading sits fully below the fixed header,
 * inside the viewport, and is what a visitor actually sees there (nothing drawn over it).
 */
export async function expectClearOfHeader(page: Page, heading: Locator, via: string) {
  let lastScrollY = Number.NaN;
  await expect
    .poll(
      async () => {
        const state = await heading.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const header = document.querySelector("header")!.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 40), box.top + box.height / 2);
          return {
            scrollY: window.scrollY,
            belowHeader: box.top >= header.bottom,
            inViewport: box.bottom <= window.innerHeight,
            notCovered: hit !== null && element.contains(hit),
          };
        });
        const settled = state.scrollY === lastScrollY;
        lastScrollY = state.scrollY;
        return { settled, belowHeader: state.belowHeader, inViewport: state.inViewport, notCovered: state.notCovered };
      },
      {
        message: `after ${via}: the section heading is below the fixed header, on screen and uncovered once scrolling stops`,
        // Frequent samples: "settled" means two equal scroll positions in a row.
        intervals: [150],
      },
    )
    .toEqual({ settled: true, belowHeader: true, inViewport: true, notCovered: true });
}
