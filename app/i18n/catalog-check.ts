import { placeholders, type Catalog } from "./messages";

/**
 * What is wrong with a catalog measured against the English one: keys it lacks or adds, placeholders
 * that differ, plural forms that are not the language's. Empty when it can serve every page.
 */
export function catalogProblems(catalog: Catalog, english: Catalog, lang: string): string[] {
  const problems: string[] = [];
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
  for (const key of Object.keys(english)) if (!(key in catalog)) problems.push(`lacks "${key}"`);
  for (const [key, message] of Object.entries(catalog)) {
    const reference = english[key];
    if (reference === undefined) {
      problems.push(`has "${key}", which English has not`);
      continue;
    }
    const expected = sortedPlaceholders(typeof reference === "string" ? reference : (reference.other ?? ""));
    if (typeof reference === "string") {
      if (typeof message !== "string") problems.push(`"${key}" must be a string`);
      else if (sortedPlaceholders(message) !== expected) problems.push(`"${key}" has placeholders ${sortedPlaceholders(message) || "none"}, English ${expected || "none"}`);
      continue;
    }
    if (typeof message !== "object" || message === null) {
      problems.push(`"${key}" must have one message per plural form (${categories.join(", ")})`);
      continue;
    }
    const forms = Object.keys(message).sort().join(", ");
    if (forms !== [...categories].sort().join(", ")) problems.push(`"${key}" has the plural forms ${forms}, the language ${[...categories].sort().join(", ")}`);
    for (const [form, text] of Object.entries(message)) {
      // The form for exactly one may say "one" in words instead of {count}.
      const found = placeholders(text ?? "").filter((name) => form !== "one" || name !== "count");
      const wanted = placeholders(reference.other ?? "").filter((name) => form !== "one" || name !== "count");
      if (typeof text !== "string") problems.push(`"${key}.${form}" must be a string`);
      else if (found.sort().join(", ") !== wanted.sort().join(", ")) problems.push(`"${key}.${form}" has placeholders ${sortedPlaceholders(text) || "none"}, English ${expected || "none"}`);
    }
  }
  return problems;
}

function sortedPlaceholders(template: string): string {
  return placeholders(template).sort().join(", ");
}
