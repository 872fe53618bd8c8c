import type english from "../../locales/en.json";
import { formatCount, formatNumeral } from "./numbers";

/**
 * The words of the interface: one language's translations per file in locales/, English the reference. A message is a
 * string with {name} placeholders, or, where a number changes the words, one string per plural category
 * of the language (Intl.PluralRules: "one", "few", "many", "other" …).
 */

export type MessageKey = keyof typeof english;
/** Keys whose message depends on a count. */
export type PluralKey = { [K in MessageKey]: (typeof english)[K] extends string ? never : K }[MessageKey];
export type TextKey = Exclude<MessageKey, PluralKey>;

export type Message = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Translations = Record<string, Message>;
export type Values = Record<string, string | number>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** The names of a template's placeholders, in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** A template with its placeholders filled; a placeholder without a value stays as written. */
export function formatMessage(template: string, values: Values = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A template split around its placeholders, each filled with the value given for it (an element, say),
 * so that the language decides where a date or a link stands in the sentence.
 */
export function messageParts<T>(template: string, values: Record<string, T>): (string | T)[] {
  const parts: (string | T)[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!(name in values)) continue;
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push(values[name]!);
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}

export type Translator = {
  /** The BCP 47 tag of the pages: `<html lang>`, dates, plural rules. */
  lang: string;
  /** The message with its placeholders filled; a number in the language's digits, ungrouped ("Page ၁၂"). */
  t(key: TextKey, values?: Values): string;
  /** The message for `count` (given to it as {count}, grouped, in the language's digits), in the language's plural form. */
  plural(key: PluralKey, count: number, values?: Values): string;
  /** A page number or the like in the language's digits (app/i18n/numbers.ts). */
  numeral(value: number): string;
  /** The message with some placeholders filled by elements. */
  parts<T>(key: TextKey, values: Record<string, T>): (string | T)[];
};

const pluralRules = new Map<string, Intl.PluralRules>();

/** Translates by one language's translations. A key they lack (which the translation check prevents) reads as the key. */
export function createTranslator(lang: string, translations: Translations): Translator {
  const text = (key: string) => {
    const message = translations[key];
    return typeof message === "string" ? message : key;
  };
  const written = (values: Values = {}) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [
        name,
        typeof value === "number" ? formatNumeral(lang, value) : value,
      ]),
    );
  return {
    lang,
    t: (key, values) => formatMessage(text(key), written(values)),
    plural(key, count, values) {
      const message = translations[key];
      if (typeof message !== "object") return key;
      let rules = pluralRules.get(lang);
      if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
      const template = message[rules.select(count)] ?? message.other ?? key;
      return formatMessage(template, { ...written(values), count: formatCount(lang, count) });
    },
    numeral: (value) => formatNumeral(lang, value),
    parts: (key, values) => messageParts(text(key), values),
  };
}
