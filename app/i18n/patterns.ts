import type { Translations } from "./messages";

/**
 * Keys a language's translations may have that English has not: patterns for what the platform's locale
 * data (ICU and CLDR in Node) gets wrong in a language. Translations write one only where that is so, and
 * the translation check holds it to its placeholders (docs/decisions/044).
 */
export const PATTERN_PLACEHOLDERS = {
  /**
   * The long date in the Buddhist calendar (a tag such as km-u-ca-buddhist): {year} of the Buddhist era,
   * {month} and {day} as ICU writes them in the Gregorian long date. ICU writes the era "BE" in Latin
   * letters in my, si, km, bo, dz, mn and ne, next to the Gregorian era's word in bo and with a numbered
   * month in mn.
   */
  "date.buddhist": ["day", "month", "year"],
} as const satisfies Record<string, readonly string[]>;

export type PatternKey = keyof typeof PATTERN_PLACEHOLDERS;

export function isPatternKey(key: string): key is PatternKey {
  return Object.hasOwn(PATTERN_PLACEHOLDERS, key);
}

/** The translations' pattern for a key, or undefined where ICU's own output serves the language. */
export function patternOf(translations: Translations, key: PatternKey): string | undefined {
  const pattern = translations[key];
  return typeof pattern === "string" ? pattern : undefined;
}
