import { placeholders, type Translations } from "./messages";
import { digitsOf } from "./numbers";
import { isPatternKey, PATTERN_PLACEHOLDERS } from "./patterns";
import { shadProblems, writesTibetan } from "./tibetan-joins";

/**
 * What is wrong with a language's translations measured against the English ones: keys they lack or add
 * (the patterns of app/i18n/patterns.ts aside), placeholders that differ, plural forms that are not the
 * language's, and digits that are not the language's own. Empty when they can serve every page.
 */
export function translationProblems(translations: Translations, english: Translations, lang: string): string[] {
  const problems: string[] = [];
  const rules = new Intl.PluralRules(lang);
  const categories = rules.resolvedOptions().pluralCategories as string[];
  // Where "one" is more than the number 1 (0 and 1 in Sinhala, 21 and 31 in Russian), its message must show the number.
  const oneIsOnlyOne = Array.from({ length: 200 }, (_, count) => count).every(
    (count) => (rules.select(count) === "one") === (count === 1),
  );
  const digits = digitsOf(lang);
  for (const key of Object.keys(english)) if (!(key in translations)) problems.push(`lacks "${key}"`);
  for (const [key, message] of Object.entries(translations)) {
    for (const text of typeof message === "string" ? [message] : Object.values(message ?? {})) {
      const foreign = [...(typeof text === "string" ? text : "").matchAll(/\p{Nd}/gu)]
        .map(([digit]) => digit)
        .filter((digit) => !digits.includes(digit));
      if (foreign.length > 0)
        problems.push(`"${key}" has the digits ${foreign.join("")}, the language writes ${digits}`);
      if (writesTibetan(lang) && typeof text === "string")
        for (const problem of shadProblems(text)) problems.push(`"${key}" has ${problem}`);
    }
    if (isPatternKey(key)) {
      const wanted = [...PATTERN_PLACEHOLDERS[key]].sort().join(", ");
      if (typeof message !== "string") problems.push(`"${key}" must be a string`);
      else if (sortedPlaceholders(message) !== wanted)
        problems.push(`"${key}" has placeholders ${sortedPlaceholders(message) || "none"}, the pattern ${wanted}`);
      continue;
    }
    const reference = english[key];
    if (reference === undefined) {
      problems.push(`has "${key}", which English has not`);
      continue;
    }
    const expected = sortedPlaceholders(typeof reference === "string" ? reference : (reference.other ?? ""));
    if (typeof reference === "string") {
      if (typeof message !== "string") problems.push(`"${key}" must be a string`);
      else if (sortedPlaceholders(message) !== expected)
        problems.push(
          `"${key}" has placeholders ${sortedPlaceholders(message) || "none"}, English ${expected || "none"}`,
        );
      continue;
    }
    if (typeof message !== "object" || message === null) {
      problems.push(`"${key}" must have one message per plural form (${categories.join(", ")})`);
      continue;
    }
    const forms = Object.keys(message).sort().join(", ");
    if (forms !== [...categories].sort().join(", "))
      problems.push(`"${key}" has the plural forms ${forms}, the language ${[...categories].sort().join(", ")}`);
    for (const [form, text] of Object.entries(message)) {
      // The form for exactly one may say "one" in words instead of {count}.
      const inWords = (name: string) => form !== "one" || !oneIsOnlyOne || name !== "count";
      const found = placeholders(text ?? "").filter(inWords);
      const wanted = placeholders(reference.other ?? "").filter(inWords);
      if (typeof text !== "string") problems.push(`"${key}.${form}" must be a string`);
      else if (found.sort().join(", ") !== wanted.sort().join(", "))
        problems.push(
          `"${key}.${form}" has placeholders ${sortedPlaceholders(text) || "none"}, English ${expected || "none"}`,
        );
    }
  }
  return problems;
}

function sortedPlaceholders(template: string): string {
  return placeholders(template).sort().join(", ");
}
