/**
 * The site's mark: an ensō, the brushed circle of Zen calligraphy. Decorative. Drawn by CSS (a mask
 * filled with the text colour, see .enso-mark in tailwind.css) so its path is not in the JavaScript.
 */
export function EnsoMark({ className = "" }: { className?: string }) {
  return <span aria-hidden="true" className={`enso-mark ${className}`} />;
}
