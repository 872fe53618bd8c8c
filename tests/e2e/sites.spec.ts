// Many sites from one process (SITES_FILE, app/site/sites.server.ts, server/guards.ts): each host of the sites
// file shows its own identity, embeds and articles, with and without JavaScript, and keeps it through
// client-side navigation; a host no site has gets 421. The process and its sites file are set up in
// tests/support/servers.mjs: zen on the environment's backend, forest on a backend of its own (another
// credential, other titles), local on embedded files; the environment gives what a site leaves unset.
import type { Page } from "@playwright/test";
import { FAKE_TOKEN } from "../support/fake-backend.mjs";
import { OTHER_TITLE, OTHER_TOKEN, ports, siteHosts, sitesThirdParty, urls } from "../support/servers.mjs";
import { backend, cardLinks, hydrated, PAGE_SIZE } from "./blog-helpers";
import { expect, hasJavaScript, test } from "./fixtures";
import { LOCAL_DOMAIN, readLocalSitesByName } from "./local-sites";
import { watchPolicy } from "./policy-watch";

readLocalSitesByName();

const originOf = (host: string) => `http://${host}:${ports.sites}`;
const { shared } = sitesThirdParty;
const sharedPartner = { name: "Shared Partner", href: "https://partner.example.test/" };

type Site = {
  host: string;
  siteName: string;
  product: string;
  encyclopedia: string;
  donation: string;
  feed: string;
  /** The lead form's address without its category, the parameter's name and the category. */
  leadForm: { url: string; param: string; category: string };
  leadScript: string;
  ad: string;
  /** The first list page's titles, newest first, and the newest article's slug. */
  titles: string[];
  firstSlug: string;
};

const backendTitles = backend.slice(0, PAGE_SIZE).map((article) => article.metaTitle);

/** What each host must show. Values the site does not set come from the environment (`shared`). */
const sites: Record<"zen" | "forest" | "local", Site> = {
  zen: {
    host: siteHosts.zen,
    siteName: "Zen Mountain Sangha",
    product: "Zen",
    encyclopedia: "https://en.wikipedia.org/wiki/Zen",
    donation: sitesThirdParty.zen.DONATION_URL,
    feed: sitesThirdParty.zen.RSS_FEED_EMBED_URL,
    leadForm: { url: shared.LEAD_FORM_URL, param: "category", category: "zen-retreats" },
    leadScript: shared.LEAD_FORM_SCRIPT_URL,
    ad: sitesThirdParty.zen.AD_SCRIPT_URL,
    titles: backendTitles,
    firstSlug: backend[0]!.slug,
  },
  forest: {
    host: siteHosts.forest,
    siteName: "Forest Sangha",
    product: "Theravada",
    encyclopedia: sitesThirdParty.forest.ENCYCLOPEDIA_URL,
    donation: sitesThirdParty.forest.DONATION_URL,
    feed: sitesThirdParty.forest.RSS_FEED_EMBED_URL,
    leadForm: { url: sitesThirdParty.forest.LEAD_FORM_URL, param: "topic", category: "forest-retreats" },
    leadScript: sitesThirdParty.forest.LEAD_FORM_SCRIPT_URL,
    ad: sitesThirdParty.forest.AD_SCRIPT_URL,
    // The same slugs as the first backend's, other titles: each site's cache is its own.
    titles: backendTitles.map((title) => title.replace("Backend Article", OTHER_TITLE)),
    firstSlug: backend[0]!.slug,
  },
  local: {
    host: siteHosts.local,
    siteName: "Local Dharma Library",
    // SITE_PRODUCT, the donation page, the feed, the lead form and the ad script are the environment's.
    product: "Pure Land",
    encyclopedia: "https://en.wikipedia.org/wiki/Pure_Land",
    donation: shared.DONATION_URL,
    feed: shared.RSS_FEED_EMBED_URL,
    leadForm: { url: shared.LEAD_FORM_URL, param: "category", category: "local-library" },
    leadScript: shared.LEAD_FORM_SCRIPT_URL,
    ad: shared.AD_SCRIPT_URL,
    // tests/support/sites-content, newest first.
    titles: [
      "Library Note: Reading the Dhammapada Slowly",
      "Library Note: The Reading Room Opens on Sundays",
      "Library Note: Chanting Books for Beginners",
    ],
    firstSlug: "reading-the-dhammapada-slowly",
  },
};

const leadFormSrc = ({ leadForm }: Site) => {
  const url = new URL(leadForm.url);
  url.searchParams.set(leadForm.param, leadForm.category);
  return url.toString();
};

/** The third-party addresses a page of this site may ask for. */
const ownThirdParty = (site: Site) => [site.donation, site.feed, leadFormSrc(site), site.leadScript, site.ad];

/** Every other site's third-party addresses that are not this site's too: none may ever be asked for. */
function foreignThirdParty(site: Site): string[] {
  const own = new Set(ownThirdParty(site));
  return Object.values(sites)
    .filter((other) => other !== site)
    .flatMap(ownThirdParty)
    .filter((url) => !own.has(url));
}

/** Fails the test on any report of the Content-Security-Policy (policy-watch.ts). */
async function watchPolicyViolations(page: Page) {
  const policy = await watchPolicy(page);
  return {
    async expectNone(where: string) {
      if (hasJavaScript(page)) expect(await policy.events(), `${where}: securitypolicyviolation events`).toEqual([]);
      expect(policy.consoleMessages, `${where}: CSP messages in the console`).toEqual([]);
    },
  };
}

async function visit(page: Page, url: string) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  if (hasJavaScript(page)) await hydrated(page);
}

/** The header and footer of every page of the site: its name, its product, the shared partners. */
async function expectFrame(page: Page, site: Site) {
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: `${site.siteName}, home`, exact: true })).toBeVisible();
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByText(site.siteName, { exact: true })).toBeVisible();
  await expect(
    footer.getByText(
      `Teachings, practice notes and community news for everyone curious about ${site.product} Buddhism.`,
    ),
  ).toBeVisible();
  await expect(footer.getByText(`© 2024 ${site.siteName}. All rights reserved.`)).toBeVisible();
  await expect(footer.getByRole("navigation", { name: "Partners" }).getByRole("link")).toHaveCount(1);
  await expect(footer.getByRole("link", { name: sharedPartner.name })).toHaveAttribute("href", sharedPartner.href);
}

const isPhone = () => test.info().project.name.endsWith("-375");

/** Opens the donation dialog (with JavaScript) or the #donate panel (without), as a visitor would. */
async function openDonation(page: Page, site: Site) {
  if (hasJavaScript(page)) {
    if (isPhone()) await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Donate", exact: true }).click();
  } else {
    await page.goto(`${originOf(site.host)}/#donate`);
  }
  const dialog = page.getByRole("dialog", { name: `Support ${site.siteName}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function closeDonation(page: Page) {
  if (hasJavaScript(page)) await page.keyboard.press("Escape");
  else await page.getByRole("dialog").getByRole("link", { name: "Maybe Later" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
}

for (const site of Object.values(sites)) {
  test(
    `${site.host}: its own name, product, embeds and articles`,
    { tag: "@crosswise" },
    async ({ page, thirdPartyRequests }) => {
      const policy = await watchPolicyViolations(page);
      const origin = originOf(site.host);
      const heroHeading = `Discover the Ancient Wisdom of ${site.product} Buddhism`;

      await test.step("home page", async () => {
        await visit(page, `${origin}/`);
        await expect(page).toHaveTitle(`${site.siteName} · ${heroHeading}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(heroHeading);
        await expectFrame(page, site);
        await expect(page.getByRole("heading", { name: `About ${site.product} Buddhism` })).toBeVisible();
        await expect(
          page.getByRole("link", { name: `Read more about ${site.product} in the encyclopedia` }),
        ).toHaveAttribute("href", site.encyclopedia);

        const feed = page.getByTitle("Buddhist article feed");
        await expect(feed).toHaveAttribute("src", site.feed);
        const form = page.getByTitle("Contact form");
        await expect(form).toHaveAttribute("src", leadFormSrc(site));
        // The frames are lazy with JavaScript: in view, the browser asks for them, which also shows that
        // the site's policy lets them in (a blocked frame never reaches the network).
        await feed.scrollIntoViewIfNeeded();
        await form.scrollIntoViewIfNeeded();
        await expect
          .poll(() => thirdPartyRequests, { message: "the feed board and the lead form" })
          .toEqual(expect.arrayContaining([site.feed, leadFormSrc(site)]));
        if (hasJavaScript(page)) {
          await expect
            .poll(() => thirdPartyRequests, { message: "the site's ad and lead-form scripts" })
            .toEqual(expect.arrayContaining([site.ad, site.leadScript]));
        }
        await policy.expectNone("home page");
      });

      await test.step("donation", async () => {
        const dialog = await openDonation(page, site);
        await expect(dialog.getByRole("heading", { name: `Support ${site.siteName}` })).toBeVisible();
        await expect(dialog.getByRole("link", { name: "Donate Now" })).toHaveAttribute("href", site.donation);
        await closeDonation(page);
      });

      await test.step("blog list and an article", async () => {
        await visit(page, `${origin}/blog`);
        await expect(page).toHaveTitle(`Blog · ${site.siteName}`);
        await expectFrame(page, site);
        await expect(cardLinks(page).getByRole("heading")).toHaveText(site.titles);
        await policy.expectNone("blog list");

        await cardLinks(page).first().click();
        await expect(page).toHaveURL(`${origin}/blog/${site.firstSlug}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(site.titles[0]!);
        await expect(page).toHaveTitle(site.titles[0]!);
        await expectFrame(page, site);
        if (hasJavaScript(page)) await hydrated(page);
        await policy.expectNone("article");
      });

      expect(
        thirdPartyRequests.filter((url) => foreignThirdParty(site).includes(url)),
        "third-party addresses of another site",
      ).toEqual([]);
    },
  );
}

test.describe("client-side navigation", { tag: ["@js", "@desktop"] }, () => {
  for (const site of Object.values(sites)) {
    test(`${site.host}: home → blog → article → home keeps the site's identity in one document`, async ({
      page,
      thirdPartyRequests,
    }) => {
      const policy = await watchPolicyViolations(page);
      const origin = originOf(site.host);
      const dataRequests: string[] = [];
      const documents: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "document" && request.frame() === page.mainFrame())
          documents.push(request.url());
        else if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(request.url());
      });

      await visit(page, `${origin}/`);
      await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
      const nav = page.getByRole("navigation", { name: "Main" });

      await nav.getByRole("link", { name: "Blog", exact: true }).click();
      await expect(page).toHaveURL(`${origin}/blog`);
      await expect(page).toHaveTitle(`Blog · ${site.siteName}`);
      await expect(cardLinks(page).getByRole("heading")).toHaveText(site.titles);
      await expectFrame(page, site);

      await cardLinks(page).first().click();
      await expect(page).toHaveURL(`${origin}/blog/${site.firstSlug}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(site.titles[0]!);
      await expect(page).toHaveTitle(site.titles[0]!);
      await expectFrame(page, site);
      // About names the product in the header too.
      await expect(nav.getByRole("link", { name: `About ${site.product}` })).toBeVisible();

      await page
        .getByRole("banner")
        .getByRole("link", { name: `${site.siteName}, home` })
        .click();
      await expect(page).toHaveURL(`${origin}/`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        `Discover the Ancient Wisdom of ${site.product} Buddhism`,
      );
      await expect(page).toHaveTitle(`${site.siteName} · Discover the Ancient Wisdom of ${site.product} Buddhism`);
      await expectFrame(page, site);

      // The donation dialog, opened after the navigations, still leads to this site's page.
      const dialog = await openDonation(page, site);
      await expect(dialog.getByRole("link", { name: "Donate Now" })).toHaveAttribute("href", site.donation);
      await closeDonation(page);

      expect(
        await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage),
        "no full page load",
      ).toBe(true);
      expect(documents, "document loads").toEqual([`${origin}/`]);
      expect(dataRequests.length, "route data fetched by the client").toBeGreaterThan(0);
      expect(
        dataRequests.filter((url) => new URL(url).host !== new URL(origin).host),
        "route data from another host",
      ).toEqual([]);
      await expect.poll(() => thirdPartyRequests).toEqual(expect.arrayContaining([site.ad]));
      expect(
        thirdPartyRequests.filter((url) => foreignThirdParty(site).includes(url)),
        "third-party addresses of another site",
      ).toEqual([]);
      await policy.expectNone("after client-side navigation");
    });
  }
});

test.describe("hosts", { tag: ["@nojs", "@desktop"] }, () => {
  test("a host no site has gets the plain 421 answer; a host matching a site's *. pattern gets that site", async ({
    page,
  }) => {
    for (const url of [
      `http://nobody.${LOCAL_DOMAIN}:${ports.sites}/`,
      `http://nobody.${LOCAL_DOMAIN}:${ports.sites}/blog`,
      `http://127.0.0.1:${ports.sites}/`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(421);
      expect(response?.headers()["content-type"], url).toMatch(/^text\/plain/);
      await expect(page.locator("body"), url).toHaveText("Misdirected Request: unknown host");
    }

    // *.zen.sites.test
    const response = await page.goto(`http://www.${siteHosts.zen}:${ports.sites}/`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover the Ancient Wisdom of Zen Buddhism");
    await expectFrame(page, sites.zen);
  });

  test("each site asks its own backend, with its own credential and domain; no credential reaches a page", async ({
    request,
  }) => {
    const get = (site: Site, pathname: string) =>
      request.get(`http://127.0.0.1:${ports.sites}${pathname}`, { headers: { Host: site.host } });
    for (const site of Object.values(sites)) {
      for (const pathname of ["/", "/blog", `/blog/${site.firstSlug}`]) {
        const response = await get(site, pathname);
        expect(response.status(), `${site.host}${pathname}`).toBe(200);
        const html = await response.text();
        for (const token of [FAKE_TOKEN, OTHER_TOKEN]) expect(html, `${site.host}${pathname}`).not.toContain(token);
      }
      // The policy lets in this site's own frames.
      const policy = (await get(site, "/")).headers()["content-security-policy"] ?? "";
      const frames = /frame-src ([^;]*)/.exec(policy)?.[1]?.split(/\s+/) ?? [];
      expect(frames, site.host).toEqual(
        expect.arrayContaining([new URL(site.feed).origin, new URL(site.leadForm.url).origin]),
      );
    }
    // A slug the local site's files do not have, though both backends do.
    expect((await get(sites.local, `/blog/${backend[0]!.slug}`)).status()).toBe(404);

    type Call = { path: string; query: Record<string, string>; authorization: string | null };
    const callsOf = async (base: string) => (await (await request.get(`${base}/__calls`)).json()) as Call[];
    const forestCalls = await callsOf(urls.otherBackend);
    const firstCalls = await callsOf(urls.backend);

    // The forest backend: asked about forest.sites.test only, always with the forest credential.
    expect(forestCalls.some((call) => call.path === "/get_metainfo" && call.query.domain === siteHosts.forest)).toBe(
      true,
    );
    expect(forestCalls.some((call) => call.path === "/get_details" && call.query.slug === sites.forest.firstSlug)).toBe(
      true,
    );
    expect(
      forestCalls.filter((call) => call.authorization !== `Bearer ${OTHER_TOKEN}`),
      "calls without the forest credential",
    ).toEqual([]);
    expect(
      forestCalls.filter((call) => call.query.domain !== undefined && call.query.domain !== siteHosts.forest),
      "other domains",
    ).toEqual([]);

    // The environment's backend (shared with other specs): zen's calls with its credential, none for the others.
    expect(
      firstCalls.some((call) => call.query.domain === siteHosts.zen && call.authorization === `Bearer ${FAKE_TOKEN}`),
    ).toBe(true);
    expect(
      firstCalls.filter((call) => call.authorization === `Bearer ${OTHER_TOKEN}`),
      "the forest credential",
    ).toEqual([]);
    expect(
      firstCalls.filter((call) => call.query.domain === siteHosts.forest || call.query.domain === siteHosts.local),
      "calls for the forest or local site",
    ).toEqual([]);
  });
});
