import { useRouteLoaderData } from "@remix-run/react";
import { createTranslator, type Translations, type Translator } from "./messages";

/**
 * What the hook reads of the root loader's data. Declared here rather than taken from app/root.tsx, which
 * renders the components that call the hook: the root's loader is checked against it instead.
 */
export type RootLanguageData = { language: { lang: string; messages: unknown } };

/** By translations, then by tag: sites of one process may share translations in different tags (zh-CN, zh-SG). */
const translators = new WeakMap<Translations, Map<string, Translator>>();
const none: Translations = {};

/**
 * The translator of the language the root loader sent (made once per set of translations and tag), for components and
 * for the root's `meta`. Without the root's data, which only a failing root loader would cause, messages
 * read as their keys.
 */
export function translatorOf(language: { lang: string; messages: unknown } | undefined): Translator {
  const messages = (language?.messages as Translations | undefined) ?? none;
  const lang = language?.lang ?? "en";
  let byTag = translators.get(messages);
  if (!byTag) translators.set(messages, (byTag = new Map()));
  let translator = byTag.get(lang);
  if (!translator) byTag.set(lang, (translator = createTranslator(lang, messages)));
  return translator;
}

/** The site's words, from the root loader: the browser receives the translations of the site's language only. */
export function useTranslation(): Translator {
  return translatorOf(useRouteLoaderData<RootLanguageData>("root")?.language);
}
