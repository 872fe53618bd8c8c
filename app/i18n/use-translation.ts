import { useRouteLoaderData } from "@remix-run/react";
import { createTranslator, type Catalog, type Translator } from "./messages";

/**
 * What the hook reads of the root loader's data. Declared here rather than taken from app/root.tsx, which
 * renders the components that call the hook: the root's loader is checked against it instead.
 */
export type RootLanguageData = { language: { lang: string; messages: unknown } };

const translators = new WeakMap<Catalog, Translator>();
const none: Catalog = {};

/**
 * The translator of the language the root loader sent (made once per catalog), for components and for
 * the root's `meta`. Without the root's data, which only a failing root loader would cause, messages read
 * as their keys.
 */
export function translatorOf(language: { lang: string; messages: unknown } | undefined): Translator {
  const messages = (language?.messages as Catalog | undefined) ?? none;
  let translator = translators.get(messages);
  if (!translator) {
    translator = createTranslator(language?.lang ?? "en", messages);
    translators.set(messages, translator);
  }
  return translator;
}

/** The site's words, from the root loader: the browser receives the catalog of the site's language only. */
export function useTranslation(): Translator {
  return translatorOf(useRouteLoaderData<RootLanguageData>("root")?.language);
}
