import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { createTranslator, type Catalog, type Translator } from "./messages";

const translators = new WeakMap<Catalog, Translator>();
const none: Catalog = {};

/**
 * The site's words, from the root loader: the browser receives the catalog of the site's language only.
 * (Without the root's data, which only a failing root loader would cause, messages read as their keys.)
 */
export function useTranslation(): Translator {
  const language = useRouteLoaderData<typeof rootLoader>("root")?.language;
  const messages = (language?.messages as Catalog | undefined) ?? none;
  let translator = translators.get(messages);
  if (!translator) {
    translator = createTranslator(language?.lang ?? "en", messages);
    translators.set(messages, translator);
  }
  return translator;
}
