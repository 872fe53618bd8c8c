import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { translationProblems } from "./translation-check";
import { canonicalTag, openGraphLocale, textDirection, translationCandidates } from "./language";
import { LRUCache } from "lru-cache";
import { createTranslator, type Translations, type Translator } from "./messages";
import { joinNamesWithShad, writesTibetan } from "./tibetan-joins";

/**
 * The translations in locales/, one JSON file per language named by its tag (vi.json, zh-Hant.json): adding
 * a language is adding a file. They are read once, when a site first asks for one, and checked against
 * English: translations that could not serve every page stop the start like any other wrong setting.
 */

export const TRANSLATIONS_DIR = path.resolve("locales");
export const DEFAULT_LANGUAGE = "en";

let tags: string[] | undefined;

/** A translations file: a language tag and .json (en.descriptions.json, the translators' notes, is none). */
const TRANSLATIONS_FILE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*\.json$/;

/** The languages there are translations for. */
export function translationTags(): string[] {
  tags ??= readdirSync(TRANSLATIONS_DIR)
    .filter((name) => TRANSLATIONS_FILE.test(name))
    .map((name) => name.slice(0, -".json".length))
    .sort();
  return tags;
}

const parsed = new Map<string, Translations>();
const problems = new Map<string, string[]>();

/** A language's translations as read from their file, once: a sites file of 500 sites in one language reads it one time. */
function read(tag: string): Translations {
  let translations = parsed.get(tag);
  if (!translations)
    parsed.set(
      tag,
      (translations = JSON.parse(readFileSync(path.join(TRANSLATIONS_DIR, `${tag}.json`), "utf8")) as Translations),
    );
  return translations;
}

function problemsOf(tag: string): string[] {
  let found = problems.get(tag);
  if (!found) problems.set(tag, (found = translationProblems(read(tag), read(DEFAULT_LANGUAGE), tag)));
  return found;
}

/**
 * The language a SITE_LANGUAGE value asks for, with the translations that serve it, or why it cannot be
 * served. The pages keep the tag as asked (de-AT: Austrian dates) and take the words of the nearest
 * translations (de).
 */
export function resolveLanguage(
  value: string,
): { ok: true; tag: string; translations: string } | { ok: false; problem: string } {
  const tag = canonicalTag(value);
  if (!tag) return { ok: false, problem: `must be a language tag such as en, vi, ja or zh-Hant, not "${value}"` };
  const available = translationTags();
  const translations = translationCandidates(tag).find((candidate) => available.includes(candidate));
  if (!translations)
    return { ok: false, problem: `has no translations for "${tag}" in locales/ (there are: ${available.join(", ")})` };
  const wrong = problemsOf(translations);
  if (wrong.length > 0) return { ok: false, problem: `locales/${translations}.json ${wrong.join("; ")}` };
  return { ok: true, tag, translations };
}

export type SiteLanguage = {
  lang: string;
  dir: "ltr" | "rtl";
  /** Open Graph's form of the tag (vi_VN). */
  ogLocale: string;
  /** The words of this language only: what the browser receives. */
  messages: Translations;
  translator: Translator;
};

/** The tradition whose words are the translations' plain keys (hero.subtitle, about.paragraph1 …). */
export const DEFAULT_TRADITION = "zen";
const TRADITION_PREFIX = "tradition.";

// Bounded: Tibetan or Dzongkha translations are made per site name, and sites come and go by reloads.
const languages = new LRUCache<string, SiteLanguage>({ max: 1000 });

/**
 * Everything the pages need of a language, in the words of a site's tradition, made once per tag and
 * tradition (and, in Tibetan and Dzongkha, per site name: its joins with the shad are written out).
 */
export function siteLanguage(
  { tag, translations }: { tag: string; translations: string },
  tradition = DEFAULT_TRADITION,
  siteName?: string,
): SiteLanguage {
  const names = siteName !== undefined && writesTibetan(tag) ? { site: siteName } : undefined;
  const key = `${tag}\n${translations}\n${tradition}${names ? `\n${names.site}` : ""}`;
  let language = languages.get(key);
  if (!language) {
    const words = forTradition(read(translations), tradition);
    const messages = names ? joinNamesWithShad(words, names) : words;
    language = {
      lang: tag,
      dir: textDirection(tag),
      ogLocale: openGraphLocale(tag),
      messages,
      translator: createTranslator(tag, messages),
    };
    languages.set(key, language);
  }
  return language;
}

/**
 * A language's translations as a site of one tradition reads them: every `tradition.<name>.<key>` of that
 * tradition in place of `<key>` (in its place, so a Zen site's translations are the file's as they were),
 * and no other tradition's words, which the browser would only carry for nothing.
 */
export function forTradition(translations: Translations, tradition: string): Translations {
  const own = `${TRADITION_PREFIX}${tradition}.`;
  const words: Translations = {};
  for (const [key, message] of Object.entries(translations))
    if (!key.startsWith(TRADITION_PREFIX)) words[key] = message;
  for (const [key, message] of Object.entries(translations))
    if (key.startsWith(own)) words[key.slice(own.length)] = message;
  return words;
}
