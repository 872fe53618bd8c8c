/** What a language tag says about the pages: whose translations serve it, the writing direction, Open Graph's form. */

/** A tag in its canonical form ("zh-hant" → "zh-Hant"), or undefined when it is not a well-formed BCP 47 tag. */
export function canonicalTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

/**
 * The translations that may serve a tag, best first: the tag itself, then its language with its likely script
 * (zh-TW and zh-HK → zh-Hant, zh-CN, zh-SG and zh → zh-Hans), then the language alone (de-AT → de) when it
 * is written in the same script (mn-Mong is not served by mn, which is Cyrillic).
 */
export function translationCandidates(tag: string): string[] {
  const locale = new Intl.Locale(tag);
  const likely = locale.maximize();
  const candidates = [locale.baseName];
  if (likely.script) candidates.push(`${likely.language}-${likely.script}`);
  if (new Intl.Locale(locale.language).maximize().script === likely.script) candidates.push(locale.language);
  return [...new Set(candidates)];
}

// V8 has offered the text info as an accessor (Node 20), and then as a method (later versions).
type WithTextInfo = Intl.Locale & { textInfo?: { direction?: string }; getTextInfo?: () => { direction?: string } };

/** The language's writing direction, from CLDR through Intl.Locale. */
export function textDirection(tag: string): "ltr" | "rtl" {
  const locale = new Intl.Locale(tag) as WithTextInfo;
  return (locale.getTextInfo?.().direction ?? locale.textInfo?.direction) === "rtl" ? "rtl" : "ltr";
}

/** Open Graph's locale: language_TERRITORY, with the likely territory when the tag names none (vi → vi_VN). */
export function openGraphLocale(tag: string): string {
  const likely = new Intl.Locale(tag).maximize();
  return likely.region ? `${likely.language}_${likely.region}` : likely.language;
}
