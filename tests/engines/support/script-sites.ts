// One site process serving a site in each language whose script needs fonts or line breaking of its own
// (docs/decisions/048), for the Firefox, WebKit and Chromium checks of tests/engines/scripts.test.ts and the
// screenshots of scripts.shots.ts. Each site's articles are written at start from its own translations, so every
// word is in its language: one article whose title, description, heading and first paragraph are long runs
// with no space (Khmer, Lao and Burmese write none between words, Tibetan none but the tsheg between
// syllables), then the same sentences as written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { startSite } from "../../support/site-process.mjs";

/** Each language's site: the names a community there might give it. */
export const scriptSites = [
  { lang: "zh-Hans", product: "禅", name: "静心禅寺" },
  { lang: "my", product: "ထေရဝါဒ", name: "ဓမ္မရိပ်သာ" },
  { lang: "si", product: "ථේරවාද", name: "ශාන්ති ආරණ්‍යය" },
  { lang: "km", product: "ថេរវាទ", name: "វត្តព្រៃសន្តិភាព" },
  { lang: "lo", product: "ເຖຣະວາດ", name: "ວັດປ່າສັນຕິທຳ" },
  { lang: "bo", product: "བོད་", name: "ཞི་བདེ་དགོན་པ།" },
  { lang: "dz", product: "འབྲུག་པ་", name: "ཞི་བདེ་ལྷ་ཁང་།" },
  { lang: "mn", product: "Төвд", name: "Амар амгалан хийд" },
  { lang: "ne", product: "थेरवाद", name: "शान्ति विहार" },
].map((site) => ({ ...site, host: `${site.lang.toLowerCase()}.scripts.test` }));

export type ScriptSite = (typeof scriptSites)[number];

/** The slug of each site's article of long runs. */
export const LONG_ARTICLE = "long-runs";

const translationsOf = (lang: string) =>
  JSON.parse(readFileSync(`locales/${lang}.json`, "utf8")) as Record<string, string | Record<string, string>>;

function prose(site: ScriptSite, keys: string[]): string[] {
  const translations = translationsOf(site.lang);
  return keys.map((key) =>
    String(translations[key]).replaceAll("{product}", site.product).replaceAll("{site}", site.name),
  );
}

/** Text as a run with no space at all, as a long name or an unpunctuated passage would be. */
const run = (texts: string[]) => texts.join("").replace(/\s+/gu, "");

/** The first `count` letters (grapheme clusters, so that no vowel sign is left without its consonant). */
const clip = (text: string, count: number) =>
  [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)]
    .slice(0, count)
    .map((part) => part.segment)
    .join("");

/** A word of the article that search finds: the first of the language's word segments of three letters or more. */
export function searchWord(site: ScriptSite): string {
  const [first] = prose(site, ["hero.subtitle"]);
  const words = [...new Intl.Segmenter(site.lang, { granularity: "word" }).segment(first!)].filter(
    (part) => part.isWordLike && [...part.segment].length >= 3,
  );
  return words[0]!.segment;
}

function articles(site: ScriptSite): Record<string, string> {
  const [subtitle, about1, about2, footer] = prose(site, [
    "hero.subtitle",
    "about.paragraph1",
    "about.paragraph2",
    "footer.about",
  ]);
  const front = (title: string, description: string, date: string) =>
    `---\nmetaTitle: ${JSON.stringify(title)}\nmetaDescription: ${JSON.stringify(description)}\ndate: "${date}"\nshortTailKeywords: ${JSON.stringify(site.product)}\n---\n\n`;
  // Every language gets runs without a space: usual in Khmer, Lao, Burmese and Tibetan, and standing for a
  // long name or compound in the others.
  return {
    [`${LONG_ARTICLE}.md`]:
      front(clip(run([site.name, about1!]), 100), clip(run([footer!, subtitle!]), 200), "2024-05-12") +
      `${run([subtitle!, about1!, about2!])}\n\n## ${clip(run([site.product, footer!]), 80)}\n\n${subtitle}\n\n${about2}\n`,
    "second.md": front(prose(site, ["about.title"])[0]!, subtitle!, "2024-03-01") + `${about1}\n\n${footer}\n`,
  };
}

/** Starts the sites process; the proxies in front of it name each site by its Host header. */
export async function startScriptSites() {
  const dir = mkdtempSync(path.join(tmpdir(), "script-sites-"));
  const sites = scriptSites.map((site) => {
    const contentDir = path.join(dir, site.lang);
    mkdirSync(contentDir);
    for (const [file, text] of Object.entries(articles(site))) writeFileSync(path.join(contentDir, file), text);
    return {
      hosts: [site.host],
      SITE_PRODUCT: site.product,
      SITE_NAME: site.name,
      SITE_LANGUAGE: site.lang,
      CONTENT_DIR: contentDir,
    };
  });
  const sitesFile = path.join(dir, "sites.yaml");
  writeFileSync(sitesFile, stringify({ sites }));
  const process = await startSite({ SITES_FILE: sitesFile });
  return {
    url: process.url,
    stop: async () => {
      await process.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A reader whose system has no font for these scripts (Windows 7 and Burmese, old Android and Tibetan…):
 * fontconfig, which Chromium and Firefox ask on Linux, is told to hide the machine's fonts for them. It is
 * read as the browser starts. WebKit's browser is started by the driver of the global setup and sees them.
 */
const NO_SCRIPT_FONTS = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*Myanmar*</glob><glob>*Tibetan*</glob><glob>*Khmer*</glob><glob>*Lao*</glob><glob>*Sinhala*</glob></rejectfont></selectfont>
</fontconfig>
`;

export async function launchWithoutScriptFonts<T>(hide: boolean, start: () => Promise<T>): Promise<T> {
  if (!hide) return start();
  const given = process.env.FONTCONFIG_FILE;
  const dir = mkdtempSync(path.join(tmpdir(), "fonts-"));
  process.env.FONTCONFIG_FILE = path.join(dir, "fonts.conf");
  writeFileSync(process.env.FONTCONFIG_FILE, NO_SCRIPT_FONTS);
  try {
    return await start();
  } finally {
    if (given === undefined) delete process.env.FONTCONFIG_FILE;
    else process.env.FONTCONFIG_FILE = given;
  }
}
