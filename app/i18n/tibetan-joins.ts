/**
 * Tibetan and Dzongkha at the join of a name and a shad (།), the mark that ends a clause: the tsheg (་)
 * that ends each syllable is dropped before a shad, except after ང, which keeps it (ང་།); after a final ཀ or
 * ག no shad is written. A message that puts a shad after {site} gets the site's name joined by these rules
 * once per site on the server, so the browser carries the joined text, not the rules.
 */

const TSHEG = "\u0F0B";
const SHAD = "\u0F0D";
const NGA = "\u0F44";
/** ཀ and ག: letters whose final stroke stands for the shad. */
const NO_SHAD_AFTER = new Set(["\u0F40", "\u0F42"]);

/** The languages written with these rules. */
export const writesTibetan = (lang: string) => ["bo", "dz"].includes(lang.split("-", 1)[0]!.toLowerCase());

/** A name followed by the shad a message puts after it, as the language writes that join. */
export function withShad(name: string): string {
  const bare = name.replace(/[\u0F0B\u0F0C]+$/u, "");
  if (bare.endsWith(SHAD)) return bare;
  // charAt, not at(-1): in the full test run another suite's library left String.prototype.at giving undefined here.
  const last = bare.charAt(bare.length - 1);
  if (last === NGA) return `${bare}${TSHEG}${SHAD}`;
  if (NO_SHAD_AFTER.has(last)) return bare;
  return `${bare}${SHAD}`;
}

/** Every `{site}།` of a language's translations written out with the site's name joined by the rules above. */
export function joinNamesWithShad<M>(messages: Record<string, M>, names: Record<string, string>): Record<string, M> {
  const joined = (text: string) =>
    text.replace(/\{(\w+)\}\u0F0D/gu, (whole, name: string) => (name in names ? withShad(names[name]!) : whole));
  return Object.fromEntries(
    Object.entries(messages).map(([key, message]) => [
      key,
      (typeof message === "string"
        ? joined(message)
        : Object.fromEntries(
            Object.entries(message as Record<string, string>).map(([form, text]) => [form, joined(text)]),
          )) as M,
    ]),
  );
}

/** Where the translations' own text breaks these rules: a tsheg before a shad not after ང, ང without it, a shad after a final ཀ or ག. */
export function shadProblems(text: string): string[] {
  const problems: string[] = [];
  if (/[^\u0F44][\u0F0B\u0F0C]\u0F0D/u.test(text)) problems.push("a tsheg before a shad (only ང keeps it: ང་།)");
  if (/\u0F44\u0F0D/u.test(text)) problems.push("ང before a shad without its tsheg (ང་།)");
  if (/[\u0F40\u0F42]\u0F0D/u.test(text)) problems.push("a shad after a final ཀ or ག, which takes none");
  return problems;
}
