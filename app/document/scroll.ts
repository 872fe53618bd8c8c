/** The spec's header threshold: the header turns solid once the page is scrolled more than this. */
export const HEADER_SHADOW_THRESHOLD_PX = 20;

export function isScrolledPast(scrollY: number, threshold = HEADER_SHADOW_THRESHOLD_PX): boolean {
  return scrollY > threshold;
}
