import type { Mark } from "~/site/traditions";

/**
 * The site's mark, its tradition's sign (an ensō, a Dharma wheel, an endless knot, a lotus). Decorative.
 * Inline, not a CSS mask: an SVG image is a document of its own for the browser to build, about 25 ms on a
 * slow phone.
 */
export function SiteMark({ mark, className = "" }: { mark: Pick<Mark, "path" | "strokeWidth">; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" className={`site-mark ${className}`}>
      <path d={mark.path} strokeWidth={mark.strokeWidth} />
    </svg>
  );
}
