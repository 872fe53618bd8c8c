/**
 * A lotus, drawn: the donation pop-up's mark. Not the character U+1FAB7 LOTUS, which is Emoji 14.0 (2021):
 * systems whose emoji font is older (Windows 10, older Android phones, Debian 12) show a missing-glyph box.
 * Decorative. tests/unit/project/font-risk.test.ts and tests/e2e/font-risk.spec.ts keep such characters out.
 */
export function LotusMark({ className = "" }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 64 64"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M32 12c6 7 8.5 17 0 32-8.5-15-6-25 0-32Z" />
      <path d="M32 44c-10-3-17.5-10.5-19-21 8 1.5 15 7 19 21Zm0 0c10-3 17.5-10.5 19-21-8 1.5-15 7-19 21Z" />
      <path d="M32 47c-10 2.5-19 .5-25-8 9-2.5 17 0 25 8Zm0 0c10 2.5 19 .5 25-8-9-2.5-17 0-25 8Z" />
    </svg>
  );
}
