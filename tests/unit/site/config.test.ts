import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultContentDir, parseSettings, publicSettings } from "~/site/config.server";

describe("settings", () => {
  it("reads the image settings: hosts with or without a port, a cache folder and bound, a secret", () => {
    const defaults = parseSettings({});
    expect(defaults.ok && defaults.settings.images).toMatchObject({
      hosts: undefined,
      cacheMaxBytes: 512 * 1024 * 1024,
      urlSecret: undefined,
      fetchTimeoutMs: 8000,
    });
    const set = parseSettings({
      IMAGE_HOSTS: " Images.LAN , 127.0.0.1:4105,",
      IMAGE_CACHE_MAX_MB: "10",
      IMAGE_URL_SECRET: "0123456789abcdef",
    });
    expect(set.ok && set.settings.images).toMatchObject({
      hosts: ["images.lan", "127.0.0.1:4105"],
      cacheMaxBytes: 10 * 1024 * 1024,
      urlSecret: "0123456789abcdef",
    });
    const wrong = parseSettings({
      IMAGE_HOSTS: "images.lan, http://x/",
      IMAGE_URL_SECRET: "short",
      IMAGE_CACHE_MAX_MB: "0",
    });
    expect(wrong.ok).toBe(false);
    const text = wrong.ok ? "" : wrong.problems.join("\n");
    expect(text).toMatch(/IMAGE_HOSTS has "http:\/\/x\/"/);
    expect(text).toMatch(/IMAGE_URL_SECRET must be at least 16 characters/);
    expect(text).toMatch(/IMAGE_CACHE_MAX_MB must be at least 1/);
  });

  it("reads the metrics listener: none unless METRICS_PORT is set, on loopback by default, never the public port", () => {
    const unset = parseSettings({ METRICS_HOST: "0.0.0.0" });
    expect(unset.ok && unset.settings.metrics).toBeUndefined();
    const set = parseSettings({ METRICS_PORT: "9464" });
    expect(set.ok && set.settings.metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    const elsewhere = parseSettings({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" });
    expect(elsewhere.ok && elsewhere.settings.metrics).toEqual({ port: 9464, host: "10.0.0.5" });
    const wrong = parseSettings({ METRICS_PORT: "3000" });
    expect(wrong.ok ? "" : wrong.problems.join("\n")).toMatch(/METRICS_PORT must differ from PORT/);
    const bad = parseSettings({ METRICS_PORT: "nine" });
    expect(bad.ok ? "" : bad.problems.join("\n")).toMatch(/METRICS_PORT must be a whole number of port/);
  });

  it("collects readers' Web Vitals unless ANALYTICS=off, and only where they can go (METRICS_PORT)", () => {
    const on = (env: Record<string, string>) => {
      const result = parseSettings(env);
      return result.ok ? result.settings.webVitals : result.problems.join("\n");
    };
    expect(on({ METRICS_PORT: "9464" })).toBe(true);
    expect(on({ METRICS_PORT: "9464", ANALYTICS: "on" })).toBe(true);
    expect(on({ METRICS_PORT: "9464", ANALYTICS: "off" })).toBe(false);
    expect(on({})).toBe(false);
    // Page views are counted without METRICS_PORT (app/counts); only ANALYTICS=off stops them.
    const counted = (env: Record<string, string>) => {
      const result = parseSettings(env);
      return result.ok && result.settings.analytics;
    };
    expect([counted({}), counted({ METRICS_PORT: "9464" }), counted({ ANALYTICS: "off" })]).toEqual([
      true,
      true,
      false,
    ]);
    expect(on({ METRICS_PORT: "9464", ANALYTICS: "no" })).toMatch(/ANALYTICS must be "on" or "off"/);
  });

  it("puts the catalogue on PostgreSQL only with a postgres:// address, with a bounded pool, and never shows the password", () => {
    const unset = parseSettings({});
    expect(unset.ok && unset.settings.catalogue.database).toBeUndefined();
    const set = parseSettings({
      CATALOGUE_DATABASE_URL: "postgres://site:pw@db.example.org:5432/catalogue",
      CATALOGUE_DATABASE_POOL: "8",
    });
    expect(set.ok && set.settings.catalogue.database).toEqual({
      url: "postgres://site:pw@db.example.org:5432/catalogue",
      poolSize: 8,
    });
    const wrong = parseSettings({
      CATALOGUE_DATABASE_URL: "mysql://site:hunter2@db/catalogue",
      CATALOGUE_DATABASE_POOL: "0",
    });
    const text = wrong.ok ? "" : wrong.problems.join("\n");
    expect(text).toMatch(/CATALOGUE_DATABASE_URL must be a PostgreSQL address/);
    expect(text).toMatch(/CATALOGUE_DATABASE_POOL must be at least 1/);
    expect(text).not.toContain("hunter2");
  });

  it("accepts the catalogue's old setting names, CATALOG_*, as the new ones, says a wrong value under the name set, and refuses both names at odds", () => {
    const old = parseSettings({
      CATALOG_DIR: "/var/lib/site/catalogue",
      CATALOG_SYNC: "off",
      CATALOG_CALLS_PER_SECOND: "9",
      CATALOG_SWEEP_SECONDS: "600",
      CATALOG_DATABASE_URL: "postgres://site:pw@db:5432/site",
      CATALOG_DATABASE_POOL: "7",
    });
    const renamed = parseSettings({
      CATALOGUE_DIR: "/var/lib/site/catalogue",
      CATALOGUE_SYNC: "off",
      CATALOGUE_CALLS_PER_SECOND: "9",
      CATALOGUE_SWEEP_SECONDS: "600",
      CATALOGUE_DATABASE_URL: "postgres://site:pw@db:5432/site",
      CATALOGUE_DATABASE_POOL: "7",
    });
    expect(old.ok && old.settings.catalogue).toEqual(renamed.ok && renamed.settings.catalogue);
    expect(old.ok && old.settings.catalogue).toMatchObject({
      dir: "/var/lib/site/catalogue",
      sync: false,
      callsPerSecond: 9,
      sweepSeconds: 600,
      database: { poolSize: 7 },
    });
    const wrongOld = parseSettings({ CATALOG_DATABASE_POOL: "0" });
    expect(wrongOld.ok ? [] : wrongOld.problems).toEqual(["CATALOG_DATABASE_POOL must be at least 1"]);
    expect(parseSettings({ CATALOG_DIR: "/a", CATALOGUE_DIR: "/a" }).ok).toBe(true);
    const both = parseSettings({ CATALOG_DIR: "/a", CATALOGUE_DIR: "/b" });
    expect(both.ok ? [] : both.problems).toEqual(["CATALOG_DIR is the old name of CATALOGUE_DIR: set one of them"]);
  });

  it("gives a complete demo site with no settings at all", () => {
    const result = parseSettings({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings.site.product).toBe("Zen");
    expect(result.settings.site.siteName).toBe("Zen Buddhism");
    expect(result.settings.port).toBe(3000);
    expect(result.settings.site.blogApi).toBeUndefined();
    expect(result.settings.site.partnerLinks).toHaveLength(2);
    expect(result.settings.site.encyclopediaUrl).toBe("https://en.wikipedia.org/wiki/Zen");
  });

  it("reads the embedded articles of the site's language when CONTENT_DIR is unset, English's from content/blog", () => {
    const folder = (env: Record<string, string>) => {
      const result = parseSettings(env);
      return result.ok ? path.relative(process.cwd(), result.settings.site.contentDir) : result.problems.join("\n");
    };
    expect(folder({})).toBe(path.join("content", "blog"));
    expect(folder({ SITE_LANGUAGE: "my" })).toBe(path.join("content", "my"));
    // By translations: zh-CN reads zh-Hans's articles, de-AT de's.
    expect(folder({ SITE_LANGUAGE: "zh-CN" })).toBe(path.join("content", "zh-Hans"));
    expect(folder({ SITE_LANGUAGE: "de-AT", CONTENT_DIR: "" })).toBe(path.join("content", "de"));
    expect(folder({ SITE_LANGUAGE: "my", CONTENT_DIR: "/srv/articles" })).toBe(
      path.relative(process.cwd(), "/srv/articles"),
    );
    // A language with no folder of its own reads English's.
    expect(defaultContentDir("fr")).toBe(path.join("content", "blog"));
  });

  it("derives the site name from the product and treats blank values as unset", () => {
    const result = parseSettings({ SITE_PRODUCT: "Pure Land", SITE_NAME: "  ", DONATION_URL: "" });
    expect(result.ok && result.settings.site.siteName).toBe("Pure Land Buddhism");
    expect(result.ok && result.settings.site.donationUrl).toBeUndefined();
    expect(result.ok && result.settings.site.encyclopediaUrl).toBe("https://en.wikipedia.org/wiki/Pure_Land");
  });

  it("lists every wrong setting by name", () => {
    const result = parseSettings({
      DONATION_URL: "javascript:alert(1)",
      AD_SCRIPT_URL: "not a url",
      PORT: "99999",
      BLOG_API_URL: "https://api.example.org/functions/v1",
      PARTNER_LINKS: "Only a name",
      ALLOWED_HOSTS: "zen.example.org, bad host",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.problems.join("\n");
    expect(text).toMatch(/DONATION_URL must be an absolute http/);
    expect(text).toMatch(/AD_SCRIPT_URL must be an absolute http/);
    expect(text).toMatch(/PORT must be at most 65535/);
    expect(text).toMatch(/BLOG_API_TOKEN is required when BLOG_API_URL is set/);
    expect(text).toMatch(/PARTNER_LINKS must be a comma-separated list/);
    expect(text).toMatch(/ALLOWED_HOSTS "bad host" is not a host name or \*\.domain pattern/);
  });

  it("reads ALLOWED_HOSTS as lower-case names and *.domain patterns; unset allows any host", () => {
    const result = parseSettings({ ALLOWED_HOSTS: "Zen.Example.org, *.zen.example.org" });
    expect(result.ok && result.settings.allowedHosts).toEqual(["zen.example.org", "*.zen.example.org"]);
    const unset = parseSettings({ ALLOWED_HOSTS: " " });
    expect(unset.ok && unset.settings.allowedHosts).toBeUndefined();
  });

  it("hands the page the public settings and never the credential", () => {
    const result = parseSettings({
      BLOG_API_URL: "https://api.example.org/functions/v1/",
      BLOG_API_TOKEN: "secret-anon-token",
      LEAD_FORM_URL: "https://forms.example.org/embed?x=1",
      LEAD_FORM_CATEGORY: "retreats",
    });
    if (!result.ok) throw new Error(result.problems.join());
    expect(result.settings.site.blogApi?.url).toBe("https://api.example.org/functions/v1");
    const visible = publicSettings(result.settings.site);
    expect(JSON.stringify(visible)).not.toContain("secret-anon-token");
    expect(visible.leadFormUrl).toBe("https://forms.example.org/embed?x=1&category=retreats");
  });
});
