// The home page as a visitor sees it, at 375 and 1280 px, with and without JavaScript (all four projects
// unless a test is tagged). The configured site shows that settings reach the page; the demo site has none.
import type { Locator, Page } from "@playwright/test";
import { thirdParty } from "../support/servers.mjs";
import { expect, hasJavaScript, test, urls } from "./fixtures";
import { expectClearOfHeader } from "./scroll-checks";

const isPhone = () => test.info().project.name.endsWith("-375");

/**
 * An element's background as [red, green, blue] in 0–255 and alpha, however the browser writes it:
 * "rgba(255, 255, 255, 0.85)", or "color(srgb 1 1 1 / 0.85)" for a colour mixed in CSS.
 */
function backgroundOf(element: Locator) {
  return element.evaluate((node) => {
    const css = getComputedStyle(node).backgroundColor;
    const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/.exec(css);
    const rgb = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(css);
    const round = (value: number) => Math.round(value * 100) / 100;
    if (srgb) return [...srgb.slice(1, 4).map((part) => Math.round(Number(part) * 255)), round(Number(srgb[4] ?? 1))];
    if (rgb) return [...rgb.slice(1, 4).map(Number), round(Number(rgb[4] ?? 1))];
    return css;
  });
}
/** Translucent white, the header's readable state. */
const TRANSLUCENT_WHITE = [255, 255, 255, 0.85];

async function waitForHydration(page: Page) {
  if (hasJavaScript(page)) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "");
}

/** The main navigation as the visitor reaches it: straight away on wide screens, through the menu on phones. */
async function openMainNav(page: Page): Promise<Locator> {
  // Until the stylesheet applies, the phone menu's copy of the navigation is not hidden on wide screens
  // either, and "Main" names two: after a click to another page, wait for its stylesheet.
  await page.waitForLoadState("load");
  if (isPhone()) {
    // A button with JavaScript, a link to the #mobile-menu target without.
    await page.getByLabel("Open menu", { exact: true }).click();
  }
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav).toBeVisible();
  return nav;
}

const sectionHeadings = {
  home: "Discover the Ancient Wisdom of Chan Buddhism",
  about: "About Chan Buddhism",
  resources: "Resources for your practice",
  contact: "Get in touch",
};

test("every part of the home page is there, with the site's settings", { tag: "@crosswise" }, async ({ page }) => {
  const response = await page.goto(`${urls.configured}/`);
  expect(response?.status()).toBe(200);

  // Header: the site's name leads home; on phones a menu toggle stands in for the links.
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Chan Practice Center, home" })).toBeVisible();
  await expect(header).toHaveCSS("position", "fixed");

  // Hero.
  const hero = page.getByRole("region", { name: sectionHeadings.home });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(sectionHeadings.home);
  await expect(hero.getByText("Sit down, breathe, and begin where you are.")).toBeVisible();
  await expect(hero.getByRole("link", { name: "Learn More" })).toHaveAttribute("href", "#about");
  await expect(hero.getByRole("link", { name: "Learn More" })).toBeVisible();
  await expect(hero.getByRole("link", { name: "View Resources" })).toHaveAttribute("href", "#resources");
  await expect(hero.getByRole("link", { name: "View Resources" })).toBeVisible();

  // About: short text and the encyclopedia in a new tab.
  const about = page.getByRole("region", { name: sectionHeadings.about });
  await expect(about.getByRole("heading", { name: sectionHeadings.about })).toBeVisible();
  await expect(about.getByText("Chan is a school of Mahāyāna Buddhism")).toBeVisible();
  const encyclopedia = about.getByRole("link", { name: /encyclopedia/ });
  await expect(encyclopedia).toBeVisible();
  await expect(encyclopedia).toHaveAttribute("href", thirdParty.ENCYCLOPEDIA_URL);
  await expect(encyclopedia).toHaveAttribute("target", "_blank");
  await expect(encyclopedia).toHaveAttribute("rel", /noopener/);

  // Resources: the feed frame, 800 px high, and the Featured Content box.
  const resources = page.getByRole("region", { name: sectionHeadings.resources });
  const feed = resources.getByTitle("Buddhist article feed");
  await expect(feed).toBeVisible();
  await expect(feed).toHaveAttribute("src", thirdParty.RSS_FEED_EMBED_URL);
  expect((await feed.boundingBox())?.height).toBeCloseTo(800, 0);
  await expect(resources.getByRole("heading", { name: "Featured Content" })).toBeVisible();
  await expect(resources.getByText("Your retreat, book or meditation centre could be featured here.")).toBeVisible();

  // Contact: the lead form frame, 789 px high, with the category in its URL.
  const contact = page.getByRole("region", { name: sectionHeadings.contact });
  const form = contact.getByTitle("Contact form");
  await expect(form).toBeVisible();
  const formUrl = new URL((await form.getAttribute("src")) ?? "");
  expect(formUrl.origin + formUrl.pathname).toBe(thirdParty.LEAD_FORM_URL);
  expect(formUrl.searchParams.get("category")).toBe(thirdParty.LEAD_FORM_CATEGORY);
  expect((await form.boundingBox())?.height).toBeCloseTo(789, 0);

  // Footer.
  const footer = page.getByRole("contentinfo");
  const quickLinks = footer.getByRole("navigation", { name: "Quick Links" });
  await expect(quickLinks.getByRole("heading", { name: "Quick Links" })).toBeVisible();
  await expect(quickLinks.getByRole("link")).toHaveText(["Home", "About", "Resources", "Contact"]);
  for (const [name, href] of [
    ["Home", "#home"],
    ["About", "#about"],
    ["Resources", "#resources"],
    ["Contact", "#contact"],
  ]) {
    await expect(quickLinks.getByRole("link", { name, exact: true })).toHaveAttribute("href", href!);
  }
  const partners = footer.getByRole("navigation", { name: "Partners" });
  await expect(partners.getByRole("heading", { name: "Partners" })).toBeVisible();
  await expect(partners.getByRole("link")).toHaveText(["Partner One", "Partner Two"]);
  await expect(partners.getByRole("link", { name: "Partner One" })).toHaveAttribute(
    "href",
    "https://one.example.test/",
  );
  await expect(partners.getByRole("link", { name: "Partner Two" })).toHaveAttribute(
    "href",
    "https://two.example.test/",
  );
  for (const link of await partners.getByRole("link").all()) await expect(link).toHaveAttribute("target", "_blank");
  await expect(footer.getByRole("heading", { name: "Follow Us" })).toBeVisible();
  await expect(footer.getByTestId("follow-us")).toBeEmpty();
  await expect(footer.getByText("© 2024 Chan Practice Center")).toBeVisible();

  // Anchored scrolling is smooth (unless the visitor asked for less motion).
  await expect(page.locator("html")).toHaveCSS("scroll-behavior", "smooth");
});

test(
  "without settings the embeds keep their space, say they are not set up, and nothing goes to third parties",
  { tag: "@crosswise" },
  async ({ page, thirdPartyRequests }) => {
    const response = await page.goto(`${urls.demo}/`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover the Ancient Wisdom of Zen Buddhism");

    const feedNotice = page.getByText("The article feed is not configured yet.");
    const formNotice = page.getByText("The contact form is not configured yet.");
    await expect(feedNotice).toBeVisible();
    await expect(formNotice).toBeVisible();
    // The box that would hold the embed keeps its height.
    const reserved = (notice: Locator) => notice.locator("xpath=ancestor::div[contains(@style, 'height')][1]");
    expect((await reserved(feedNotice).boundingBox())?.height).toBeCloseTo(800, 0);
    expect((await reserved(formNotice).boundingBox())?.height).toBeCloseTo(789, 0);
    await expect(page.getByRole("region", { name: "Get in touch" }).locator("iframe")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Resources for your practice" }).locator("iframe")).toHaveCount(0);

    // Visit the whole page so anything lazy gets its chance, then check nothing left the machine.
    await waitForHydration(page);
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    await page.waitForLoadState("networkidle");
    expect(thirdPartyRequests).toEqual([]);
  },
);

test(
  "the configured embeds are requested: feed and lead form frames, and the lead form's script with JavaScript",
  { tag: "@desktop" },
  async ({ page, thirdPartyRequests }) => {
    await page.goto(`${urls.configured}/`);
    const leadForm = `${thirdParty.LEAD_FORM_URL}?category=${thirdParty.LEAD_FORM_CATEGORY}`;
    await page
      .getByRole("region", { name: "Resources for your practice" })
      .getByTitle("Buddhist article feed")
      .scrollIntoViewIfNeeded();
    await expect.poll(() => thirdPartyRequests).toContain(thirdParty.RSS_FEED_EMBED_URL);
    await page.getByRole("region", { name: "Get in touch" }).getByTitle("Contact form").scrollIntoViewIfNeeded();
    await expect.poll(() => thirdPartyRequests).toContain(leadForm);
    if (hasJavaScript(page)) await expect.poll(() => thirdPartyRequests).toContain(thirdParty.LEAD_FORM_SCRIPT_URL);
  },
);

test("ad rows sit between the sections with reserved slots: one banner per row on phones, three on wide screens", async ({
  page,
  thirdPartyRequests,
}) => {
  await page.goto(`${urls.configured}/`);
  const rows = page.locator("[data-ad-row]");
  await expect(rows).toHaveCount(3);

  // Page order: hero, ads, about, ads, resources, ads, contact.
  const top = async (locator: Locator) => (await locator.boundingBox())!.y;
  const order = [
    await top(page.getByRole("region", { name: sectionHeadings.home })),
    await top(rows.nth(0)),
    await top(page.getByRole("region", { name: sectionHeadings.about })),
    await top(rows.nth(1)),
    await top(page.getByRole("region", { name: sectionHeadings.resources })),
    await top(rows.nth(2)),
    await top(page.getByRole("region", { name: sectionHeadings.contact })),
  ];
  expect(order).toEqual([...order].sort((a, b) => a - b));

  const perRow = isPhone() ? 1 : 3;
  for (const row of await rows.all()) {
    const visibleSlots = row.locator("[id^='ad-']").filter({ visible: true });
    await expect(visibleSlots).toHaveCount(perRow);
    await expect(row.getByText("Advertisement", { exact: true }).filter({ visible: true })).toHaveCount(perRow);
    for (const slot of await visibleSlots.all()) {
      await expect(slot).toHaveAttribute("id", /^ad-[a-z-]+-\d$/);
      await expect(slot).toHaveCSS("min-height", "250px");
      expect((await slot.boundingBox())!.height).toBeGreaterThanOrEqual(250);
    }
  }
  // The tall slot beside the feed: 600 px, only where there is room for it.
  const tower = page.locator("#ad-resources-tower");
  await expect(tower).toHaveCSS("min-height", "600px");
  if (isPhone()) await expect(tower).toBeHidden();
  else expect((await tower.boundingBox())!.height).toBeGreaterThanOrEqual(600);

  // The ad network's script goes into the first row's first slot, which keeps its 250 px.
  if (hasJavaScript(page)) {
    const container = page.locator(`[data-ad-row] :has(> script[src="${thirdParty.AD_SCRIPT_URL}"])`);
    await expect(container).toHaveCount(1);
    await expect(container).toHaveCSS("min-height", "250px");
    await expect(container).toHaveId("ad-home-top-1");
    await expect.poll(() => thirdPartyRequests).toContain(thirdParty.AD_SCRIPT_URL);
  }
});

test(
  "loading the page with its embeds and ads does not shift the layout",
  { tag: "@js" },
  async ({ page, thirdPartyRequests }) => {
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { __shifts: number[] }).__shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    await expect.poll(() => thirdPartyRequests).toContain(thirdParty.AD_SCRIPT_URL);
    await expect.poll(() => thirdPartyRequests).toContain(thirdParty.LEAD_FORM_SCRIPT_URL);
    await page.waitForLoadState("load");
    const cls = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve((window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0)),
            ),
          ),
        ),
    );
    expect(cls).toBeLessThan(0.01);
  },
);

test("the fixed header links to every section, the blog and the donation panel", async ({ page }) => {
  await page.goto(`${urls.configured}/`);
  await waitForHydration(page);
  const header = page.getByRole("banner");
  if (isPhone()) {
    // The links sit behind a labelled toggle.
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
  } else {
    await expect(page.getByRole("button", { name: /menu/i })).toBeHidden();
    await expect(page.getByLabel("Open menu", { exact: true })).toBeHidden();
  }
  const nav = await openMainNav(page);
  await expect(nav.getByRole("link")).toHaveText(["Home", "About Chan", "Resources", "Blog", "Contact", "Donate"]);
  for (const [name, href] of [
    ["Home", "#home"],
    ["About Chan", "#about"],
    ["Resources", "#resources"],
    ["Blog", "/blog"],
    ["Contact", "#contact"],
    ["Donate", "#donate"],
  ] as const) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }

  // Blog leads to the blog, which has the same header and footer.
  await nav.getByRole("link", { name: "Blog", exact: true }).click();
  await expect(page).toHaveURL(`${urls.configured}/blog`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Chan Practice Center, home" })).toBeVisible();
  await expect(page.getByRole("contentinfo").getByText("© 2024 Chan Practice Center")).toBeVisible();
  // Away from the home page the section links lead back to it.
  await waitForHydration(page);
  const blogNav = await openMainNav(page);
  for (const [name, href] of [
    ["Home", "/"],
    ["About Chan", "/#about"],
    ["Resources", "/#resources"],
    ["Contact", "/#contact"],
  ] as const) {
    await expect(blogNav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await expect(
    page.getByRole("contentinfo").getByRole("navigation", { name: "Quick Links" }).getByRole("link", { name: "About" }),
  ).toHaveAttribute("href", "/#about");
});

test("each header section link scrolls its heading into view below the fixed header, and the menu closes", async ({
  page,
}) => {
  await page.goto(`${urls.configured}/`);
  await waitForHydration(page);
  for (const [name, id] of [
    ["Contact", "contact"],
    ["About Chan", "about"],
    ["Resources", "resources"],
    ["Home", "home"],
  ] as const) {
    const nav = await openMainNav(page);
    await nav.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(`${urls.configured}/#${id}`);
    // On phones the menu has closed: its links are gone and the toggle says so.
    if (isPhone())
      await expect(page.getByRole("navigation", { name: "Main" }), `menu after choosing ${name}`).toBeHidden();
    await expectClearOfHeader(
      page,
      page.getByRole("heading", { name: sectionHeadings[id], exact: true }),
      `header link ${name}`,
    );
  }
});

test("hero and footer section links scroll their headings into view below the fixed header", async ({ page }) => {
  await page.goto(`${urls.configured}/`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Learn More" }).click();
  await expect(page).toHaveURL(`${urls.configured}/#about`);
  await expectClearOfHeader(page, page.getByRole("heading", { name: sectionHeadings.about }), "Learn More");

  await page.getByRole("link", { name: "View Resources" }).click();
  await expect(page).toHaveURL(`${urls.configured}/#resources`);
  await expectClearOfHeader(page, page.getByRole("heading", { name: sectionHeadings.resources }), "View Resources");

  const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick Links" });
  await quickLinks.getByRole("link", { name: "Contact" }).click();
  await expect(page).toHaveURL(`${urls.configured}/#contact`);
  await expectClearOfHeader(page, page.getByRole("heading", { name: sectionHeadings.contact }), "footer link Contact");

  await quickLinks.getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(`${urls.configured}/#about`);
  await expectClearOfHeader(page, page.getByRole("heading", { name: sectionHeadings.about }), "footer link About");

  await quickLinks.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(`${urls.configured}/#home`);
  await expectClearOfHeader(page, page.getByRole("heading", { level: 1 }), "footer link Home");
});

test(
  "on phones a labelled toggle opens and closes the menu and reports its state",
  { tag: ["@js", "@mobile"] },
  async ({ page }) => {
    await page.goto(`${urls.configured}/`);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    await toggle.click();
    const close = page.getByRole("button", { name: "Close menu" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveCount(6);

    await close.click();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    // Choosing an item closes it.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Resources" }).click();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  },
);

test(
  "on phones without JavaScript the menu still opens and closes, and choosing an item closes it",
  { tag: ["@nojs", "@mobile"] },
  async ({ page }) => {
    await page.goto(`${urls.configured}/`);
    const open = page.getByRole("link", { name: "Open menu", exact: true });
    const close = page.getByRole("link", { name: "Close menu", exact: true });
    await expect(open).toBeVisible();
    await expect(close).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

    await open.click();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveCount(6);
    await expect(open).toBeHidden();
    const scrollY = await page.evaluate(() => window.scrollY);
    await close.click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    expect(await page.evaluate(() => window.scrollY), "closing the menu does not scroll").toBe(scrollY);

    await open.click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Chan" }).click();
    await expect(page).toHaveURL(`${urls.configured}/#about`);
    await expect(page.getByRole("navigation", { name: "Main" }), "menu after choosing an item").toBeHidden();
  },
);

test(
  "the header turns translucent white with a shadow once the page is scrolled past 20 px",
  { tag: "@js" },
  async ({ page }) => {
    await page.goto(`${urls.configured}/`);
    await waitForHydration(page);
    const header = page.getByRole("banner");
    const scrollTo = (top: number) =>
      page.evaluate(
        (y) =>
          new Promise<void>((resolve) => {
            window.scrollTo({ top: y, behavior: "instant" });
            requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
          }),
        top,
      );
    const look = async () => ({
      background: await backgroundOf(header),
      ...(await header.evaluate((element) => ({
        shadow: getComputedStyle(element).boxShadow !== "none",
        changing: element.getAnimations().length > 0,
      }))),
    });
    const clear = { background: [0, 0, 0, 0], shadow: false, changing: false };
    const solid = { background: TRANSLUCENT_WHITE, shadow: true, changing: false };

    await expect.poll(look).toEqual(clear);
    await scrollTo(20);
    expect(await page.evaluate(() => window.scrollY)).toBe(20);
    expect(await look(), "at exactly 20 px the header stays clear").toEqual(clear);
    await scrollTo(21);
    await expect.poll(look).toEqual(solid);
    await scrollTo(2000);
    await expect.poll(look).toEqual(solid);
    await scrollTo(0);
    await expect.poll(look).toEqual(clear);
  },
);

test("without JavaScript the header is always in its readable solid state", { tag: "@nojs" }, async ({ page }) => {
  await page.goto(`${urls.configured}/`);
  const header = page.getByRole("banner");
  expect(await backgroundOf(header)).toEqual(TRANSLUCENT_WHITE);
  await expect(header).not.toHaveCSS("box-shadow", "none");
  await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
  expect(await backgroundOf(header)).toEqual(TRANSLUCENT_WHITE);
  await expect(header).not.toHaveCSS("box-shadow", "none");
  expect((await header.boundingBox())?.y).toBe(0);
});

test(
  "the encyclopedia link opens the configured article in a new tab",
  { tag: "@desktop" },
  async ({ page, context }) => {
    await page.goto(`${urls.configured}/`);
    const popup = page.waitForEvent("popup");
    const opened = context.waitForEvent("request", (request) => request.url() === thirdParty.ENCYCLOPEDIA_URL);
    await page.getByRole("link", { name: /encyclopedia/ }).click();
    // The article loads in a new tab (its host is blocked here) while the home page stays where it was.
    const tab = await popup;
    expect((await opened).isNavigationRequest()).toBe(true);
    expect(tab).not.toBe(page);
    expect(page.url()).toBe(`${urls.configured}/`);
  },
);
