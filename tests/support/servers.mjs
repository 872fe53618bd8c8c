// The servers the browser tests start (see playwright.config.ts): two fake backends, three site
// configurations and one process serving many sites from a sites file, all on loopback.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { FAKE_TOKEN } from "./fake-backend.mjs";

const PORTS_USED = 10;

/**
 * The first of PORTS_USED free loopback ports in a row, from 4100 up. Synchronous, because the
 * Playwright config needs the ports as it loads; kept in the environment so that the test workers,
 * which load the config again, use the same ones.
 */
function freePortBase() {
  const probe = `
    const net = require("node:net");
    const free = (port) => new Promise((resolve) => {
      const server = net.createServer().once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    (async () => {
      for (let base = 4100; base < 60000; base += ${PORTS_USED}) {
        const all = await Promise.all(Array.from({ length: ${PORTS_USED} }, (_, i) => free(base + i)));
        if (all.every(Boolean)) return console.log(base);
      }
    })();`;
  const base = Number(spawnSync(process.execPath, ["-e", probe], { encoding: "utf8" }).stdout.trim());
  if (!base)
    throw new Error("No free loopback ports for the test servers: set TEST_PORT_BASE to the first of 10 free ports.");
  return base;
}

process.env.TEST_PORT_BASE ||= String(freePortBase());
const base = Number(process.env.TEST_PORT_BASE);

export const ports = {
  demo: base,
  backend: base + 1,
  configured: base + 2,
  broken: base + 3,
  otherBackend: base + 4,
  sites: base + 5,
};

const at = (port) => `http://127.0.0.1:${port}`;

export const urls = {
  demo: at(ports.demo),
  backend: at(ports.backend),
  configured: at(ports.configured),
  broken: at(ports.broken),
  otherBackend: at(ports.otherBackend),
};

/** Third-party settings of the "configured" site. Their hosts are blocked and recorded in tests. */
export const thirdParty = {
  DONATION_URL: "https://donate.example.test/give",
  RSS_FEED_EMBED_URL: "https://feeds.example.test/board/42",
  LEAD_FORM_URL: "https://forms.example.test/embed/contact",
  LEAD_FORM_CATEGORY: "meditation-center",
  LEAD_FORM_SCRIPT_URL: "https://forms.example.test/embed.js",
  AD_SCRIPT_URL: "https://ads.example.test/ad.js",
  ENCYCLOPEDIA_URL: "https://encyclopedia.example.test/wiki/Chan",
  PARTNER_LINKS: "Partner One|https://one.example.test/,Partner Two|https://two.example.test/",
};

export const configuredSite = {
  SITE_PRODUCT: "Chan",
  SITE_NAME: "Chan Practice Center",
  SITE_URL: "https://chan.example.test",
  ALLOWED_HOSTS: "127.0.0.1,chan.example.test,*.chan.example.test",
  BLOG_API_URL: urls.backend,
  BLOG_API_TOKEN: FAKE_TOKEN,
  ...thirdParty,
};

export const brokenSite = {
  // Nothing listens there: every backend call is refused.
  BLOG_API_URL: at(base + 9),
  BLOG_API_TOKEN: FAKE_TOKEN,
  BLOG_API_TIMEOUT_MS: "1000",
};

/** The second fake backend's credential and title: the forest site's articles, not the first backend's. */
export const OTHER_TOKEN = "other-token";
export const OTHER_TITLE = "Forest Article";

/**
 * Many sites from one process (SITES_FILE). The browser reaches these names through Chromium's
 * --host-resolver-rules (tests/e2e/sites.spec.ts): *.sites.test is 127.0.0.1, and only there.
 */
export const siteHosts = {
  zen: "zen.sites.test",
  forest: "forest.sites.test",
  local: "local.sites.test",
  vi: "vi.sites.test",
};

/** The embedded articles of a language (content/<translations>, docs/decisions/049). */
export const contentDirOf = (lang) => fileURLToPath(new URL(`../../content/${lang}/`, import.meta.url));

/**
 * One site per language of locales/ besides the Vietnamese one (tests/e2e/languages.spec.ts), each with
 * embedded articles written in its language: host, SITE_LANGUAGE, product and name as a community there
 * would write them, and the slug of its longest article.
 */
export const languageSites = [
  { lang: "ja", product: "禅", name: "禅の道場 静けさの森", article: "zazen-no-hajimekata" },
  { lang: "th", product: "เถรวาท", name: "วัดป่าสันติธรรม", article: "anapanasati-bueang-ton" },
  { lang: "ko", product: "선", name: "고요한 숲 선원", article: "jwaseon-cheoeum-sijakhagi" },
  { lang: "zh-Hant", product: "禪", name: "法雨禪寺", article: "nianfo-rumen" },
  { lang: "de", product: "Zen", name: "Zen-Sangha am See", article: "zazen-zu-hause" },
  { lang: "es", product: "zen", name: "Sangha Zen del Valle", article: "meditacion-sentada-primeros-pasos" },
].map((site) => ({
  ...site,
  host: `${site.lang.toLowerCase()}.sites.test`,
  contentDir: contentDirOf(site.lang),
}));

/** Third-party settings of the sites process: the environment's (shared) ones and each site's own. */
export const sitesThirdParty = {
  shared: {
    DONATION_URL: "https://donate.example.test/shared",
    RSS_FEED_EMBED_URL: "https://feeds.example.test/board/shared",
    LEAD_FORM_URL: "https://forms.example.test/embed/contact",
    LEAD_FORM_SCRIPT_URL: "https://forms.example.test/embed.js",
    AD_SCRIPT_URL: "https://ads.example.test/shared.js",
  },
  zen: {
    DONATION_URL: "https://donate.example.test/zen",
    RSS_FEED_EMBED_URL: "https://feeds.example.test/board/zen",
    AD_SCRIPT_URL: "https://ads.example.test/zen.js",
    LEAD_FORM_CATEGORY: "zen-retreats",
  },
  forest: {
    DONATION_URL: "https://donate.example.test/forest",
    RSS_FEED_EMBED_URL: "https://feeds.example.test/board/forest",
    LEAD_FORM_URL: "https://leads.example.test/forest/form",
    LEAD_FORM_SCRIPT_URL: "https://leads.example.test/forest/embed.js",
    LEAD_FORM_CATEGORY: "forest-retreats",
    LEAD_FORM_CATEGORY_PARAM: "topic",
    AD_SCRIPT_URL: "https://ads.example.test/forest.js",
    ENCYCLOPEDIA_URL: "https://encyclopedia.example.test/wiki/Theravada",
  },
  local: {
    LEAD_FORM_CATEGORY: "local-library",
  },
};

/** The embedded articles of the local site: a folder of its own, so they cannot be the demo's. */
export const sitesContentDir = fileURLToPath(new URL("./sites-content/", import.meta.url));
/** The Vietnamese site's embedded articles: text where nearly every word has a multi-byte letter. */
export const vietnameseContentDir = contentDirOf("vi");
/** The Vietnamese site's name (tests/e2e/multibyte-text.spec.ts). */
export const VIETNAMESE_SITE_NAME = "Tịnh Độ Phật Giáo";

/**
 * The environment of the sites process: the defaults every site starts from. Its backend is the first
 * fake backend, which the zen site uses without naming it.
 */
export const sitesEnv = {
  SITES_FILE: fileURLToPath(new URL(`../.artifacts/sites-${base}.yaml`, import.meta.url)),
  SITE_PRODUCT: "Pure Land",
  PARTNER_LINKS: "Shared Partner|https://partner.example.test/",
  BLOG_API_URL: urls.backend,
  BLOG_API_TOKEN: FAKE_TOKEN,
  ...sitesThirdParty.shared,
};

/** The sites file: zen on the environment's backend, forest on its own, local, vi and the other languages on embedded files. */
export const sitesFile = {
  sites: [
    {
      hosts: [siteHosts.zen, `*.${siteHosts.zen}`],
      SITE_PRODUCT: "Zen",
      SITE_NAME: "Zen Mountain Sangha",
      ...sitesThirdParty.zen,
    },
    {
      hosts: [siteHosts.forest],
      SITE_PRODUCT: "Theravada",
      SITE_NAME: "Forest Sangha",
      BLOG_API_URL: urls.otherBackend,
      BLOG_API_TOKEN: OTHER_TOKEN,
      ...sitesThirdParty.forest,
    },
    {
      hosts: [siteHosts.local],
      SITE_NAME: "Local Dharma Library",
      CONTENT_DIR: sitesContentDir,
      ...sitesThirdParty.local,
    },
    {
      hosts: [siteHosts.vi],
      SITE_PRODUCT: "Tịnh Độ",
      SITE_NAME: VIETNAMESE_SITE_NAME,
      SITE_LANGUAGE: "vi",
      CONTENT_DIR: vietnameseContentDir,
    },
    ...languageSites.map((site) => ({
      hosts: [site.host],
      SITE_PRODUCT: site.product,
      SITE_NAME: site.name,
      SITE_LANGUAGE: site.lang,
      CONTENT_DIR: site.contentDir,
    })),
  ],
};

/**
 * Writes SITES_FILE for the sites process (playwright.config.ts calls it as it loads). The test workers
 * load the config again: the file is rewritten only if its text changed, never under the running server.
 */
export function writeSitesFile() {
  const text = `# Written by tests/support/servers.mjs for the browser tests.\n${stringify(sitesFile)}`;
  let current;
  try {
    current = readFileSync(sitesEnv.SITES_FILE, "utf8");
  } catch {
    current = undefined;
  }
  if (current === text) return;
  mkdirSync(path.dirname(sitesEnv.SITES_FILE), { recursive: true });
  writeFileSync(sitesEnv.SITES_FILE, text);
}
