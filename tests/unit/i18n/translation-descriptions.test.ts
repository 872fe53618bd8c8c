import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PATTERN_PLACEHOLDERS } from "~/i18n/patterns";

// locales/en.descriptions.json tells translators, for each key of the English translations, what the text is,
// where it appears, what its placeholders stand for and what an ambiguous word means there.

const english = JSON.parse(readFileSync("locales/en.json", "utf8")) as Record<string, unknown>;
const descriptions = JSON.parse(readFileSync("locales/en.descriptions.json", "utf8")) as Record<string, unknown>;

/** Keys a language's translations may have that English need not (app/i18n/patterns.ts): they may be described too. */
const patternKeys = Object.keys(PATTERN_PLACEHOLDERS);
const MIN_CHARS = 15;
const MAX_CHARS = 300;

describe("the descriptions of the English translations' keys", () => {
  it("describe every key of en.json", () => {
    const undescribed = Object.keys(english).filter(
      (key) => typeof descriptions[key] !== "string" || (descriptions[key] as string).trim() === "",
    );
    expect(undescribed).toEqual([]);
  });

  it("describe no key that en.json has not (the optional date patterns aside)", () => {
    const unknown = Object.keys(descriptions).filter(
      (key) => !Object.hasOwn(english, key) && !patternKeys.includes(key),
    );
    expect(unknown).toEqual([]);
  });

  it(`are each ${MIN_CHARS} to ${MAX_CHARS} characters long`, () => {
    const wrong = Object.entries(descriptions)
      .filter(
        ([, description]) =>
          typeof description !== "string" || description.trim().length < MIN_CHARS || description.length > MAX_CHARS,
      )
      .map(
        ([key, description]) => `${key}: ${typeof description === "string" ? description.length : typeof description}`,
      );
    expect(wrong).toEqual([]);
  });
});
