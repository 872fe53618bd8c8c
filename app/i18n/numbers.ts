/**
 * Numbers as the page's language writes them: in the digits of Intl's default numbering system for the tag
 * (Myanmar digits for my, Tibetan for dz, Devanagari for ne, Latin digits for most others) or of the one the
 * tag asks for (km-u-nu-khmr). Addresses (`?page=2`) are made from the number itself and stay ASCII.
 */

const counts = new Map<string, Intl.NumberFormat>();
const numerals = new Map<string, Intl.NumberFormat>();

/**
 * Chromium's ICU data leaves out my, dz and ne (and si, km, lo, bo, mn): it formats them as its default
 * locale, in Latin digits, and a page's numbers would change as React hydrates it (decision 48). Their
 * digits are named, and English is the fallback locale, so every browser writes what the server wrote.
 */
const systems: Record<string, string> = { my: "mymr", dz: "tibt", ne: "deva" };

function formatOf(
  formats: Map<string, Intl.NumberFormat>,
  lang: string,
  options: Intl.NumberFormatOptions,
): Intl.NumberFormat {
  let format = formats.get(lang);
  if (!format)
    formats.set(lang, (format = new Intl.NumberFormat([lang, "en"], { numberingSystem: systems[lang], ...options })));
  return format;
}

/** A count, grouped as the language groups digits: "1,234" (en), "၁,၂၃၄" (my), "१,२३४" (ne). */
export function formatCount(lang: string, value: number): string {
  return formatOf(counts, lang, {}).format(value);
}

/** A number that names something, a page say: the language's digits, ungrouped ("1234", "༡༢༣༤"). */
export function formatNumeral(lang: string, value: number): string {
  return formatOf(numerals, lang, { useGrouping: false }).format(value);
}

/** The ten digits of the language's numbering system, zero first ("0123456789", "၀၁၂၃၄၅၆၇၈၉"). */
export function digitsOf(lang: string): string {
  return Array.from({ length: 10 }, (_, digit) => formatNumeral(lang, digit)).join("");
}
