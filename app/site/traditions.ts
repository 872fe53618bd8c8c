/**
 * The Buddhist traditions a site may belong to (SITE_TRADITION). A tradition brings the home page's words
 * (the translations' `tradition.<name>.*` keys, app/i18n/translations.server.ts), its mark and the encyclopedia
 * article the About section links to; the site's own name, links and embeds stay settings.
 * docs/decisions/062-every-tradition-its-own-home-page.md says why each was chosen.
 */
export const TRADITIONS = ["zen", "theravada", "tibetan", "pure-land", "general"] as const;
export type Tradition = (typeof TRADITIONS)[number];

/**
 * A mark, drawn in a 64 × 64 box with round caps and joins: stroked lines only, so that one colour draws it
 * in the header, the footer, the hero and the share image, as the ensō always was.
 */
export type Mark = { name: string; path: string; strokeWidth: number };

/** The ensō, the brushed circle of Zen calligraphy. */
const ENSO: Mark = {
  name: "ensō",
  path: "M46.5 12.8C40.6 8.4 31.9 7.2 24.4 10.3 14.2 14.5 8.3 25.6 10.6 36.4c2.4 11.2 13 19.3 24.5 18.6 11.7-.7 20.6-10.4 20.5-22-.1-6.5-2.8-11.7-6.6-15.4",
  strokeWidth: 6,
};

/** The wheel of the teaching (dhammacakka, dharmacakra): rim, hub and eight spokes, one for each limb of the path, out past the rim. */
const DHARMA_WHEEL: Mark = {
  name: "Dharma wheel",
  path:
    "M11 32a21 21 0 1 0 42 0a21 21 0 1 0-42 0M27 32a5 5 0 1 0 10 0a5 5 0 1 0-10 0M37 32L60 32M35.5 35.5L51.8 51.8M32 37L32 60M28.5 35.5L12.2 51.8" +
    "M27 32L4 32M28.5 28.5L12.2 12.2M32 27L32 4M35.5 28.5L51.8 12.2",
  strokeWidth: 3.5,
};

/** The endless knot (དཔལ་བེའུ), one of the eight auspicious symbols of Tibetan Buddhism: a woven diamond with a loop at each point. */
const ENDLESS_KNOT: Mark = {
  name: "endless knot",
  path: "M32 17.9L17.9 32M36.7 22.6L22.6 36.7M41.4 27.3L27.3 41.4M46.1 32L32 46.1M32 17.9L46.1 32M27.3 22.6L41.4 36.7M22.6 27.3L36.7 41.4M17.9 32L32 46.1M32 46.1L27.4 50.7A6.5 6.5 0 1 0 36.6 50.7ZM46.1 32L50.7 27.4A6.5 6.5 0 1 1 50.7 36.6ZM17.9 32L13.3 36.6A6.5 6.5 0 1 1 13.3 27.4ZM32 17.9L36.6 13.3A6.5 6.5 0 1 0 27.4 13.3Z",
  strokeWidth: 3.5,
};

/** A lotus in bloom: the Pure Land's flower, in which its faithful are born. The donation pop-up draws the same. */
export const LOTUS: Mark = {
  name: "lotus",
  path: "M32 12c6 7 8.5 17 0 32-8.5-15-6-25 0-32ZM32 44c-10-3-17.5-10.5-19-21 8 1.5 15 7 19 21Zm0 0c10-3 17.5-10.5 19-21-8 1.5-15 7-19 21ZM32 47c-10 2.5-19 .5-25-8 9-2.5 17 0 25 8Zm0 0c10 2.5 19 .5 25-8-9-2.5-17 0-25 8Z",
  strokeWidth: 3,
};

export const MARKS: Record<Tradition, Mark> = {
  zen: ENSO,
  theravada: DHARMA_WHEEL,
  tibetan: ENDLESS_KNOT,
  "pure-land": LOTUS,
  // The wheel is the one sign every school keeps.
  general: DHARMA_WHEEL,
};

/**
 * The encyclopedia article the About section links to when ENCYCLOPEDIA_URL is unset. Zen's follows the
 * product's name, as it always has; the others name the tradition, whatever the product is called.
 */
export function defaultEncyclopediaUrl(tradition: Tradition, product: string): string {
  const article = {
    zen: product.replace(/\s+/g, "_"),
    theravada: "Theravada",
    tibetan: "Tibetan_Buddhism",
    "pure-land": "Pure_Land_Buddhism",
    general: "Buddhism",
  }[tradition];
  return `https://en.wikipedia.org/wiki/${encodeURIComponent(article)}`;
}
