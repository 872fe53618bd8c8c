import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import sharp from "sharp";
import { breakUnits, SHARE_IMAGE, shareImageSvg } from "~/crawlers/share-image";
import { resolveLanguage, siteLanguage } from "~/i18n/translations.server";
import { MARKS } from "~/site/traditions";

// The share image (/share.png) of every language of the sites example (docs/sites-all-languages.yaml):
// its name and tagline show no missing-glyph box. The image is an SVG drawn by librsvg, whose text engine
// (Pango) takes each character from the first of the text's font families that has it, else from any
// font fontconfig knows that has it (sorted by the text's language); a character that no font has is
// drawn as a box. The test asks fontconfig (`fc-list`: the configuration and font files sharp reads) for
// every font and its characters, and finds each character's font so. With no font for a script
// (FONTCONFIG_FILE naming a configuration without it) it fails, naming the characters drawn as boxes.

const run = promisify(execFile);

type Font = { families: string[]; weight: number; charset: string; ranges?: [number, number][] };
type Site = { SITE_LANGUAGE: string; SITE_PRODUCT: string; SITE_NAME?: string };

const sites = (parse(readFileSync("docs/sites-all-languages.yaml", "utf8")) as { sites: Site[] }).sites;

/** fontconfig's character set ("20-7e a0 e81-e82 …", hexadecimal) as ranges. */
const rangesOf = (charset: string) =>
  charset
    .split(/\s+/)
    .filter(Boolean)
    .map((range) => {
      const [low, high = low] = range.split("-").map((digits) => parseInt(digits, 16));
      return [low!, high!] as [number, number];
    });

let installed: Promise<Font[]> | undefined;

/** Every font fontconfig knows, with its family names, weight (80 regular, 200 bold) and characters. */
const allFonts = () =>
  (installed ??= run("fc-list", ["-f", "%{family}\\t%{weight}\\t%{charset}\\n"], { maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout }) =>
      stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [families = "", weight = "", charset = ""] = line.split("\t");
          // A variable font gives a range, "[0 210]": its first end will do.
          return { families: families.split(","), weight: Number(/[\d.]+/.exec(weight)?.[0] ?? 80), charset };
        }),
  ));

/** The fonts the text engine tries, in order: each named family's face nearest the weight, then every font. */
async function fontsFor(families: string, bold: boolean): Promise<{ family: string; font: Font }[]> {
  const fonts = await allFonts();
  const weight = bold ? 200 : 80;
  const named = families.split(/\s*,\s*/).flatMap((family) => {
    const faces = fonts
      .filter((font) => font.families.includes(family))
      .sort((a, b) => Math.abs(a.weight - weight) - Math.abs(b.weight - weight));
    return faces.length > 0 ? [{ family, font: faces[0]! }] : [];
  });
  return [...named, ...fonts.map((font) => ({ family: font.families[0]!, font }))];
}

// Read when first asked: most fonts never are.
const covers = (font: Font, codePoint: number) =>
  (font.ranges ??= rangesOf(font.charset)).some(([low, high]) => codePoint >= low && codePoint <= high);
const unescape = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
// Drawn by nothing: spaces, and joiners and other default-ignorable characters (Sinhala's ZWJ).
const UNDRAWN = /[\s\p{Default_Ignorable_Code_Point}]/u;
// Scripts whose marks DejaVu places well: elsewhere (its Lao) it stacks them onto each other.
const DEJAVU_SCRIPTS = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Common}\p{Script=Inherited}]/u;

/** Each line of the image's text, with the font each of its characters is drawn with (undefined: a box). */
async function drawnWith(svg: string) {
  const lines = [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)];
  expect(lines.length).toBeGreaterThan(1);
  return Promise.all(
    lines.map(async ([, attributes, text]) => {
      const fonts = await fontsFor(
        /font-family="([^"]+)"/.exec(attributes!)![1]!,
        attributes!.includes('font-weight="bold"'),
      );
      const characters = [...unescape(text!)].filter((character) => !UNDRAWN.test(character));
      return {
        text: unescape(text!),
        drawn: characters.map((character) => ({
          character,
          font: fonts.find(({ font }) => covers(font, character.codePointAt(0)!))?.family,
        })),
      };
    }),
  );
}

/** The share image's name and tagline of a site of the example, and the font each of their characters is drawn with. */
async function shareImageOf(site: Site) {
  const resolved = resolveLanguage(site.SITE_LANGUAGE);
  if (!resolved.ok) throw new Error(resolved.problem);
  const { lang, translator } = siteLanguage(resolved);
  const name = site.SITE_NAME ?? `${site.SITE_PRODUCT} Buddhism`;
  const tagline = translator.t("hero.title", { product: site.SITE_PRODUCT });
  const svg = shareImageSvg(name, tagline, MARKS.zen, lang);
  return { lang, name, tagline, svg, lines: await drawnWith(svg) };
}

// The timeouts are for a loaded machine: each test takes under a second on an idle one.
describe("the share image in every language", () => {
  it("draws every letter of the name and tagline with a glyph, from a font made for its script", async () => {
    const images = await Promise.all(sites.map(shareImageOf));
    expect(images).toHaveLength(17);
    const boxes: Record<string, string[]> = {};
    const misdrawn: Record<string, string[]> = {};
    for (const { lang, name, tagline, lines } of images) {
      // The whole name and tagline are drawn, line by line.
      expect(lines.map((line) => line.text.replace(/\s+/g, "")).join(""), lang).toBe(
        `${name}${tagline}`.replace(/\s+/g, ""),
      );
      for (const { text, drawn } of lines) {
        for (const { character, font } of drawn) {
          if (!font) (boxes[lang] ??= []).push(`${hex(character.codePointAt(0)!)} ${character} in "${text}"`);
          else if (font.startsWith("DejaVu") && !DEJAVU_SCRIPTS.test(character))
            (misdrawn[lang] ??= []).push(`${character} by ${font} in "${text}"`);
        }
      }
    }
    expect(boxes, "characters no font has, drawn as boxes").toEqual({});
    expect(misdrawn, "letters left to DejaVu, whose marks collide in these scripts").toEqual({});
  }, 30_000);

  it("keeps the name and tagline inside the image: nothing is drawn in its last 20 pixels on the right", async () => {
    const images = await Promise.all(sites.map(shareImageOf));
    const margin = 20;
    const inked = await Promise.all(
      images.map(async ({ lang, svg }) => {
        // The right edge above the bottom band, in grey: a letter running off the image darkens it.
        const { data } = await sharp(Buffer.from(svg))
          .extract({ left: SHARE_IMAGE.width - margin, top: 0, width: margin, height: SHARE_IMAGE.height - 16 })
          .greyscale()
          .raw()
          .toBuffer({ resolveWithObject: true });
        return [lang, data.filter((value) => value < 200).length] as const;
      }),
    );
    expect(inked.filter(([, pixels]) => pixels > 0)).toEqual([]);
  }, 30_000);

  it("breaks a Tibetan line after a syllable's tsheg, where the text has no space", () => {
    const units = breakUnits("ནང་ཆོས་ཀྱི་གནའ་བོའི་ཤེས་རབ", "bo").map((unit) => unit.text);
    expect(units).toEqual(["ནང་", "ཆོས་", "ཀྱི་", "གནའ་", "བོའི་", "ཤེས་", "རབ"]);
  });
});
