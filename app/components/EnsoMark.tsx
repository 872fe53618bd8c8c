import { ENSO_PATH } from "~/site/enso";

/**
 * The site's mark: an ensō, the brushed circle of Zen calligraphy. Decorative. Inline, not a CSS mask:
 * an SVG image is a document of its own for the browser to build, about 25 ms on a slow phone.
 */
export function EnsoMark({ className = "" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 64 64" className={`enso-mark ${className}`}>
      <path d={ENSO_PATH} />
    </svg>
  );
}
