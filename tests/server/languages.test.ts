import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forTradition, translationTags } from "~/i18n/translations.server";
import { buddhistEraYear } from "~/i18n/buddhist-era";
import { formatLongDate } from "~/i18n/long-date";
import { digitsOf, formatNumeral } from "~/i18n/numbers";
import { documentPart } from "../support/document.mjs";
import { languageSites, VIETNAMESE_SITE_NAME, vietnameseContentDir } from "../support/servers.mjs";
import { startSite, startSiteExpectingExit } from "../support/site-process.mjs";

// A site in its language, as crawlers, feed readers and social networks read it (the browser tests read
// what people see): <html lang>, og:locale, inLanguage, the titles and descriptions the site writes, the
// feed, the dates and the share image; and a SITE_LANGUAGE with no translations stops the start.

type Site = Awaited<ReturnType<typeof startSite>>;
type Translations = Record<string, string>;

const translationsOf = (lang: string) => JSON.parse(readFileSync(`locales/${lang}.json`, "utf8")) as Translations;
const japanese = languageSites.find((site) => site.lang === "ja")!;
const scratch = mkdtempSync(path.join(tmpdir(), "languages-"));
let sites: Record<"en" | "vi" | "ja", Site>;

const decode = (text: string) =>
  text
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const meta = (html: string, key: string) =>
  decode(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? "");
const title = (html: string) => decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "");
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
const page = async (site: Site, pagePath: string) => (await fetch(site.url + pagePath)).text();

beforeAll(async () => {
  const images = path.join(scratch, "images");
  const [en, vi, ja] = await Promise.all([
    startSite({ IMAGE_CACHE_DIR: images }),
    startSite({
      SITE_LANGUAGE: "vi",
      SITE_PRODUCT: "Tịnh Độ",
      SITE_NAME: VIETNAMESE_SITE_NAME,
      CONTENT_DIR: vietnameseContentDir,
      IMAGE_CACHE_DIR: images,
    }),
    startSite({
      SITE_LANGUAGE: "ja",
      SITE_PRODUCT: japanese.product,
      SITE_NAME: japanese.name,
      CONTENT_DIR: japanese.contentDir,
      IMAGE_CACHE_DIR: images,
    }),
  ]);
  sites = { en, vi, ja };
}, 30_000);

afterAll(async () => {
  await Promise.all(Object.values(sites ?? {}).map((site) => site.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

describe("pages in the site's language", () => {
  it.each([
    ["en", "en_US"],
    ["vi", "vi_VN"],
    ["ja", "ja_JP"],
  ] as const)("%s: <html lang> and dir, og:locale, and inLanguage in the JSON-LD", async (lang, ogLocale) => {
    const home = await page(sites[lang], "/");
    expect(home).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lang}" dir="ltr"[ >]`));
    expect(meta(home, "og:locale")).toBe(ogLocale);
    expect(jsonLd(home).find((data) => data["@type"] === "WebSite")?.inLanguage).toBe(lang);
    const [slug] = /href="\/blog\/(?!rss\.xml)([^"]+)"/.exec(await page(sites[lang], "/blog"))!.slice(1);
    const article = await page(sites[lang], `/blog/${slug}`);
    expect(jsonLd(article).find((data) => data["@type"] === "BlogPosting")?.inLanguage).toBe(lang);
  });

  it("titles, descriptions, breadcrumbs and the share image's alt text are the site's own words", async () => {
    const vi = translationsOf("vi");
    const home = await page(sites.vi, "/");
    expect(title(home)).toBe(`${VIETNAMESE_SITE_NAME} · ${vi["hero.title"]!.replace("{product}", "Tịnh Độ")}`);
    expect(meta(home, "description")).toBe(vi["meta.homeDescription"]!.replace("{product}", "Tịnh Độ"));
    expect(meta(home, "og:image:alt")).toBe(vi["meta.shareImageAlt"]!.replace("{site}", VIETNAMESE_SITE_NAME));
    expect(home).toContain(
      `<link rel="alternate" type="application/rss+xml" title="${vi["feed.linkTitle"]}" href="/blog/rss.xml"/>`,
    );
    const list = await page(sites.vi, "/blog");
    expect(title(list)).toBe(`${vi["nav.blog"]} · ${VIETNAMESE_SITE_NAME}`);
    const crumbs = jsonLd(list).find((data) => data["@type"] === "BreadcrumbList")?.itemListElement as {
      name: string;
    }[];
    expect(crumbs.map((crumb) => crumb.name)).toEqual([vi["nav.home"], vi["nav.blog"]]);
    expect(title(await page(sites.vi, "/no/such/page"))).toBe(vi["meta.pageNotFound"]);
    expect(title(await page(sites.vi, "/blog/no-such-article"))).toBe(
      `${vi["article.notFoundTitle"]} · ${VIETNAMESE_SITE_NAME}`,
    );
    // English stays as the spec words it.
    expect(title(await page(sites.en, "/"))).toBe("Zen Buddhism · Discover the Ancient Wisdom of Zen Buddhism");
  });

  it("sends the browser its site's translations only", async () => {
    // The sites here are Zen's (the default tradition): their translations are the file's without the other traditions' words.
    const messages = (lang: string) =>
      Object.values(forTradition(translationsOf(lang), "zen")).filter(
        (message): message is string => typeof message === "string" && message.length > 20,
      );
    const [vi, ja, en] = await Promise.all([page(sites.vi, "/"), page(sites.ja, "/"), page(sites.en, "/")]);
    // Every message of its own language is there (the data after the document holds the translations) …
    expect(messages("vi").filter((message) => !vi.includes(JSON.stringify(message).slice(1, -1)))).toEqual([]);
    // … and none of another's.
    for (const [html, others] of [
      [vi, ["en", "ja"]],
      [ja, ["en", "vi"]],
      [en, ["vi", "ja"]],
    ] as const) {
      for (const other of others) expect(messages(other).filter((message) => html.includes(message))).toEqual([]);
    }
    // Nor another tradition's words in its own language.
    const zens = new Set(Object.values(forTradition(translationsOf("vi"), "zen")));
    // (Some words are Zen's as well, such as the About title: those are the site's own.)
    const otherTraditions = Object.entries(translationsOf("vi")).filter(
      ([key, message]) =>
        key.startsWith("tradition.") && typeof message === "string" && message.length > 20 && !zens.has(message),
    );
    expect(otherTraditions.length).toBeGreaterThan(30);
    expect(otherTraditions.filter(([, message]) => vi.includes(JSON.stringify(message).slice(1, -1)))).toEqual([]);
  });

  it("dates articles in the language, on the day written", async () => {
    const published = (html: string) => decode(/<time dateTime="[^"]*">([^<]*)<\/time>/.exec(html)?.[1] ?? "");
    expect(published(await page(sites.vi, "/blog/niem-phat-moi-ngay"))).toBe("14 tháng 9, 2024");
    expect(published(await page(sites.ja, `/blog/${japanese.article}`))).toBe("2024年5月12日");
    expect(published(await page(sites.en, "/blog/beginners-mind"))).toBe("August 6, 2024");
  });

  it("the feed names its language, and its title and description are the site's words", async () => {
    const ja = translationsOf("ja");
    const feed = await page(sites.ja, "/blog/rss.xml");
    expect(feed).toContain("<language>ja</language>");
    expect(feed).toContain(`<title>${japanese.name} · ${ja["nav.blog"]}</title>`);
    expect(feed).toContain(
      `<description>${ja["feed.description"]!.replace("{product}", japanese.product)}</description>`,
    );
    expect(await page(sites.en, "/blog/rss.xml")).toContain("<language>en</language>");
  });

  it("the share image carries the site's own tagline", async () => {
    const png = async (site: Site) => Buffer.from(await (await fetch(`${site.url}/share.png`)).arrayBuffer());
    const [en, ja] = await Promise.all([png(sites.en), png(sites.ja)]);
    expect(await sharp(ja).metadata()).toMatchObject({ format: "png", width: 1200, height: 630 });
    expect(ja.equals(en)).toBe(false);
  });
});

describe("SITE_LANGUAGE", () => {
  it("with no translations, stops the start with one clear line, like any wrong setting", async () => {
    const { code, output } = await startSiteExpectingExit({ SITE_LANGUAGE: "fr" });
    expect(code, output).toBe(1);
    const there = translationTags().join(", ");
    expect(output.split("\n")).toContain(
      `  - SITE_LANGUAGE has no translations for "fr" in locales/ (there are: ${there})`,
    );
  }, 30_000);

  it("in a sites file, is each site's own, and a wrong one names the site", async () => {
    const file = path.join(scratch, "sites.yaml");
    writeFileSync(
      file,
      "sites:\n  - hosts: [vi.example.org]\n    SITE_LANGUAGE: vi\n  - hosts: [kl.example.org]\n    SITE_LANGUAGE: tlh\n",
    );
    const { code, output } = await startSiteExpectingExit({ SITES_FILE: file });
    expect(code, output).toBe(1);
    expect(output).toContain('  - site kl.example.org: SITE_LANGUAGE has no translations for "tlh"');
    expect(output).not.toContain("vi.example.org");
  }, 30_000);
});

// The nine languages of decision 44, where Node's locale data is missing or wrong in places, each served
// twice from one process: in its language's calendar, and with the Buddhist calendar asked for
// (SITE_LANGUAGE=km-u-ca-buddhist), which ICU labels "BE" in Latin letters. Articles are written in the
// language (twelve: two pages of the blog and of a search). No page shows an English interface string or a
// Latin letter in its text, every digit a reader sees is the language's own (dates, reading time, counts,
// page numbers, the copyright's year), dates name their month once, and addresses keep ASCII digits.
describe("the nine languages whose locale data Node lacks in places", () => {
  /** Per language: the tag of its first site, names as a community would write them, an article's words, a word to search for. */
  const NINE = [
    {
      lang: "zh-Hans",
      tag: "zh-CN",
      buddhist: "zh-SG-u-ca-buddhist",
      product: "禅",
      name: "静心禅寺",
      title: "禅修入门",
      text: "每天静坐片刻，让心安定下来。",
      body: "禅修 是一条向内的路。每天早晨坐下来，数息，让念头来去。",
      word: "禅修",
    },
    {
      lang: "my",
      product: "ထေရဝါဒ",
      name: "ငြိမ်းချမ်းရေး ကျောင်းတိုက်",
      title: "တရားထိုင်ခြင်း အစ",
      text: "နေ့စဉ် အနည်းငယ် ထိုင်၍ စိတ်ကို ငြိမ်စေပါ။",
      body: "တရား ထိုင်ခြင်းသည် အတွင်းသို့ လှည့်သော လမ်း ဖြစ်သည်။ နံနက်တိုင်း ထိုင်ပြီး ထွက်သက်ဝင်သက်ကို ရှုမှတ်ပါ။",
      word: "တရား",
    },
    {
      lang: "si",
      product: "ථේරවාද",
      name: "ශාන්ති විහාරය",
      title: "භාවනාව ආරම්භ කිරීම",
      text: "දිනපතා මඳ වේලාවක් වාඩි වී සිත සන්සුන් කරගන්න.",
      body: "භාවනාව යනු ඇතුළතට යන මඟකි. සෑම උදෑසනකම වාඩි වී හුස්ම ගණන් කරන්න.",
      word: "භාවනාව",
    },
    {
      lang: "km",
      product: "ថេរវាទ",
      name: "វត្តសន្តិធម៌",
      title: "ការចាប់ផ្ដើមធ្វើសមាធិ",
      text: "អង្គុយបន្តិចរៀងរាល់ថ្ងៃ ដើម្បីឲ្យចិត្តស្ងប់។",
      body: "សមាធិ គឺជាផ្លូវចូលទៅខាងក្នុង។ រៀងរាល់ព្រឹក អង្គុយចុះ ហើយរាប់ដង្ហើម។",
      word: "សមាធិ",
    },
    {
      lang: "lo",
      product: "ເຖຣະວາດ",
      name: "ວັດປ່າສັນຕິທຳ",
      title: "ເລີ່ມຕົ້ນນັ່ງສະມາທິ",
      text: "ນັ່ງສັກໜ້ອຍທຸກມື້ ເພື່ອໃຫ້ໃຈສະຫງົບ",
      body: "ສະມາທິ ເປັນທາງທີ່ຫັນເຂົ້າຫາພາຍໃນ ທຸກເຊົ້າ ນັ່ງລົງ ແລະ ນັບລົມຫາຍໃຈ",
      word: "ສະມາທິ",
    },
    {
      lang: "bo",
      product: "རྙིང་མ",
      name: "བདེ་ཆེན་ཆོས་གླིང",
      title: "སྒོམ་གྱི་འགོ་འཛུགས",
      text: "ཉིན་རེ་སྐར་མ་ཁ་ཤས་འཁོད་དེ་སེམས་ཞི་བར་གཏོང་།",
      body: "སྒོམ་ནི་ནང་དུ་ལྟ་བའི་ལམ་ཡིན། ཞོགས་པ་རེ་རེར་འཁོད་དེ་དབུགས་གྲངས་རྩིས།",
      word: "སྒོམ",
    },
    {
      lang: "dz",
      product: "འབྲུག་པ་བཀའ་བརྒྱུད",
      name: "བདེ་ཆེན་ཕོ་བྲང",
      title: "སྒོམ་གྱི་ འགོ་བཙུགས",
      text: "ཉིན་བསྟར་ སྐར་མ་ཁ་ཙ་ཅིག་ སྡོད་དེ་ སེམས་ཞི་བ་བཟོ།",
      body: "སྒོམ་འདི་ ནང་ཁར་བལྟ་ནིའི་ལམ་ཨིན། ནངས་པ་རེ་རེ་ སྡོད་དེ་ དབུགས་གྱངས་ཁ་རྩིས།",
      word: "སྒོམ",
    },
    {
      lang: "mn",
      product: "Гэлүг",
      name: "Гандантэгчэнлин хийд",
      title: "Бясалгалын эхлэл",
      text: "Өдөр бүр хэсэг суугаад сэтгэлээ тайвшруул.",
      body: "Өглөө бүр суугаад амьсгалаа тоол: энэ бол бясалгал юм.",
      word: "бясалгал",
    },
    {
      lang: "ne",
      product: "वज्रयान",
      name: "शान्ति विहार",
      title: "ध्यानको सुरुवात",
      text: "हरेक दिन केही बेर बसेर मनलाई शान्त पार्नुहोस्।",
      body: "ध्यान भित्रतिर फर्कने मार्ग हो। हरेक बिहान बस्नुहोस् र सास गन्नुहोस्।",
      word: "ध्यान",
    },
  ];
  const ARTICLES = 12;
  const english = JSON.parse(readFileSync("locales/en.json", "utf8")) as Record<
    string,
    string | Record<string, string>
  >;
  const sites = NINE.flatMap((language) =>
    [language.tag ?? language.lang, language.buddhist ?? `${language.lang}-u-ca-buddhist`].map((tag) => ({
      ...language,
      tag,
      host: `${tag.toLowerCase()}.nine.test`,
    })),
  );
  type NineSite = (typeof sites)[number];
  const dateOf = (n: number) => `2024-${String(n).padStart(2, "0")}-${String(n + 10).padStart(2, "0")}`;
  let server: Site;

  beforeAll(async () => {
    for (const { lang, title, text, body, word } of NINE) {
      const dir = path.join(scratch, `nine-${lang}`);
      mkdirSync(dir, { recursive: true });
      for (let n = 1; n <= ARTICLES; n++) {
        const front = {
          metaTitle: `${title} ${formatNumeral(lang, n)}`,
          metaDescription: text,
          date: dateOf(n),
          shortTailKeywords: word,
        };
        writeFileSync(path.join(dir, `article-${n}.md`), `---\n${JSON.stringify(front)}\n---\n\n${body}\n\n${word}\n`);
      }
    }
    const file = path.join(scratch, "nine.json");
    const entries = sites.map((site) => ({
      hosts: [site.host],
      SITE_LANGUAGE: site.tag,
      SITE_PRODUCT: site.product,
      SITE_NAME: site.name,
      CONTENT_DIR: path.join(scratch, `nine-${site.lang}`),
      PARTNER_LINKS: `${site.name}|https://partner.example.test/`,
    }));
    writeFileSync(file, JSON.stringify({ sites: entries }));
    server = await startSite({ SITES_FILE: file, IMAGE_CACHE_DIR: path.join(scratch, "images") });
  }, 30_000);

  afterAll(() => server?.stop());

  function get(host: string, urlPath: string): Promise<{ status: number; html: string }> {
    return new Promise((resolve, reject) => {
      http
        .get(
          { host: "127.0.0.1", port: server.port, path: urlPath, headers: { Host: host }, agent: false },
          (response) => {
            let html = "";
            response.setEncoding("utf8").on("data", (chunk: string) => (html += chunk));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, html }));
          },
        )
        .on("error", reject);
    });
  }

  /** The page as a reader meets it: its text (scripts and styles aside), and its labels, alt and title texts and meta contents. */
  async function read(site: NineSite, urlPath: string) {
    const { status, html: raw } = await get(site.host, urlPath);
    expect(status, `${site.host}${urlPath}`).toBe(200);
    const html = documentPart(raw);
    // The article's address, printed at its end on paper only, is an address: ASCII.
    const text = html
      .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/g, " ")
      .replace(/<p [^>]*data-article-address[^>]*>[^<]*<\/p>/g, " ");
    const shown = decode(text.replace(/<!--[\s\S]*?-->/g, " ").replace(/<[^>]+>/g, " "));
    const attributes = [...html.matchAll(/\s(?:aria-label|alt|title|placeholder|content)="([^"]*)"/g)].map((match) =>
      decode(match[1]!),
    );
    return { html, shown, read: `${shown}\n${attributes.join("\n")}` };
  }

  /** The fixed words of the English interface (the spec's), as a page would show them with this site's names. */
  function englishWords({ product, name }: NineSite): string[] {
    const words = new Set<string>();
    for (const [key, message] of Object.entries(english)) {
      if (key === "language.name") continue;
      for (const text of typeof message === "string" ? [message] : Object.values(message)) {
        for (const fragment of text
          .replaceAll("{product}", product)
          .replaceAll("{site}", name)
          .split(/\{\w+\}/))
          if (fragment.trim().length >= 4) words.add(fragment.trim());
      }
    }
    return [...words];
  }

  function expectOwnWords(site: NineSite, page: { shown: string; read: string }, where: string) {
    expect(
      englishWords(site).filter((words) => page.read.includes(words)),
      `English interface words on ${where}`,
    ).toEqual([]);
    // No Latin letter at all: no English word, no "BE" or "AD", no abbreviation.
    expect(page.shown.match(/[A-Za-z]+/g), `Latin letters on ${where}`).toBeNull();
    const digits = digitsOf(site.tag);
    expect(
      [...page.shown.matchAll(/\p{Nd}/gu)].map(([digit]) => digit).filter((digit) => !digits.includes(digit!)),
      `digits other than ${digits} on ${where}`,
    ).toEqual([]);
  }

  /** The long date of article n as this site shows it: the day written, the month named once, in the site's calendar. */
  function expectDate(site: NineSite, label: string, n: number) {
    const translations = JSON.parse(readFileSync(`locales/${site.lang}.json`, "utf8")) as Record<string, string>;
    const time = Date.parse(dateOf(n));
    expect(label).toBe(formatLongDate(time, site.tag, translations));
    const month = new Intl.DateTimeFormat(site.lang, { month: "long", day: "numeric", timeZone: "UTC" })
      .formatToParts(time)
      .find((part) => part.type === "month")!
      .value.replace(/་$/, "");
    if (/\p{L}/u.test(month)) expect(label.split(month), `${label}: ${month} once`).toHaveLength(2);
    // The Buddhist era as the language's country counts it (app/i18n/buddhist-era.ts), or the Gregorian year.
    const era = site.tag.includes("-u-ca-buddhist") ? buddhistEraYear(site.lang, time) : "gregorian";
    expect(label).toContain(formatNumeral(site.tag, era === "gregorian" ? 2024 : (era ?? 2024 + 543)));
  }

  /** The page numbers of a page's pagination, in the language's digits, and its addresses in ASCII. */
  function expectPagination(site: NineSite, html: string, addresses: RegExp) {
    const nav = /<nav aria-label="[^"]*" class="mt-12[^"]*">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
    const numbers = [...nav.matchAll(/>([^<>]+)<\/(?:a|span)>/g)]
      .map((match) => decode(match[1]!))
      .filter((text) => /^\p{Nd}+$/u.test(text));
    expect(numbers, site.host).toEqual([formatNumeral(site.tag, 1), formatNumeral(site.tag, 2)]);
    const hrefs = [...nav.matchAll(/href="([^"]*)"/g)].map((match) => decode(match[1]!));
    expect(hrefs.length, site.host).toBeGreaterThan(0);
    for (const href of hrefs) expect(href, site.host).toMatch(addresses);
  }

  it("the home page and the blog's two pages are in the language, with its digits and ASCII addresses", async () => {
    for (const site of sites) {
      const home = await read(site, "/");
      expect(home.html).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${site.tag}" dir="ltr"[ >]`));
      expectOwnWords(site, home, `${site.host}/`);
      for (const urlPath of ["/blog", "/blog?page=2"]) {
        const list = await read(site, urlPath);
        expectOwnWords(site, list, `${site.host}${urlPath}`);
        expectPagination(site, list.html, /^\/blog(\?page=[0-9]+)?$/);
      }
    }
  }, 60_000);

  it("an article: its date, month named once, in the site's calendar and digits, and its reading time in the language", async () => {
    for (const site of sites) {
      const article = await read(site, "/blog/article-3");
      expectOwnWords(site, article, `${site.host}/blog/article-3`);
      expectDate(
        site,
        decode(/<time dateTime="2024-03-13T00:00:00.000Z">([^<]*)<\/time>/.exec(article.html)?.[1] ?? ""),
        3,
      );
    }
  }, 60_000);

  it("a search with two pages of results: counts, dates and page numbers in the language's digits", async () => {
    for (const site of sites) {
      const query = `/search?q=${encodeURIComponent(site.word)}`;
      // The embedded articles reach the catalogue with its first sync, started by the first search.
      let results = await read(site, query);
      for (
        let tries = 0;
        tries < 100 && !results.html.includes(`href="/search?q=${encodeURIComponent(site.word)}&amp;page=2"`);
        tries++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        results = await read(site, query);
      }
      expectOwnWords(site, results, `${site.host}${query}`);
      expectPagination(site, results.html, /^\/search\?q=[%0-9A-F]+(&page=[0-9]+)?$/);
      const hits = [
        ...results.html.matchAll(
          /<a [^>]*href="\/blog\/article-(\d+)"[^>]*>[^<]*<\/a><\/h2><p class="mt-1[^"]*">([^<]*)<\/p>/g,
        ),
      ];
      expect(hits, site.host).toHaveLength(10);
      for (const [, n, label] of hits) expectDate(site, decode(label!), Number(n));
      expectOwnWords(site, await read(site, `${query}&page=2`), `${site.host}${query}&page=2`);
    }
  }, 90_000);
});
