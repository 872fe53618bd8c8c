// The servers the browser tests start (see playwright.config.ts): one fake backend and three site
// configurations, all on loopback.
import { spawnSync } from "node:child_process";
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
  if (!base) throw new Error("No free loopback ports for the test servers: set TEST_PORT_BASE to the first of 10 free ports.");
  return base;
}

process.env.TEST_PORT_BASE ||= String(freePortBase());
const base = Number(process.env.TEST_PORT_BASE);

export const ports = { demo: base, backend: base + 1, configured: base + 2, broken: base + 3 };

const at = (port) => `http://127.0.0.1:${port}`;

export const urls = {
  demo: at(ports.demo),
  backend: at(ports.backend),
  configured: at(ports.configured),
  broken: at(ports.broken),
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
