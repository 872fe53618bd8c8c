import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { DEFAULT_LANGUAGE, resolveLanguage, siteLanguage } from "~/i18n/translations.server";
import { parseAllowedHosts } from "./host";
import { defaultEncyclopediaUrl, MARKS, TRADITIONS } from "./traditions";
import { aboutSourceOf } from "./about-file";
import { defaultHandle, HANDLE_PATTERN } from "./fediverse-handle";

/**
 * Every setting the site reads, checked once. An operator who gets one wrong sees a list of what is
 * wrong at start-up instead of a broken page later.
 */

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const webUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, "must be an absolute http:// or https:// URL")
    .optional(),
);

const optionalText = z.preprocess(emptyToUndefined, z.string().trim().max(200).optional());
const text = (fallback: string) => optionalText.transform((value) => value ?? fallback);

/** A whole number within bounds, or undefined when unset. */
const optionalInteger = (min: number, max: number, unit: string) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: `must be a whole number of ${unit}` })
      .int(`must be a whole number of ${unit}`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .optional(),
  );

/** A whole number within bounds, with a default when unset. */
const integer = (fallback: number, min: number, max: number, unit: string) =>
  optionalInteger(min, max, unit).transform((value) => value ?? fallback);

const seconds = (fallback: number) => integer(fallback, 0, 31_536_000, "seconds");

/** A switch, on unless set to "off". */
const onUnlessOff = z
  .preprocess(emptyToUndefined, z.enum(["on", "off"], { error: 'must be "on" or "off"' }).optional())
  .transform((value) => value ?? "on");

const hostName = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/, "must be a bare host name such as zen.example.org")
    .optional(),
);

/** IMAGE_HOSTS: "host" (any port) or "host:port", comma-separated, lower case. */
/** IMAGE_HOSTS and FEDIVERSE_HOSTS: comma-separated hosts, each with or without a port. */
const hostList = z.preprocess(emptyToUndefined, z.string().optional()).transform((value, ctx) => {
  const hosts = (value ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(host)) {
      ctx.addIssue({ code: "custom", message: `has "${host}": each entry must be a host or host:port` });
    }
  }
  return hosts.length > 0 ? hosts : undefined;
});

const defaultPartners = "Access to Insight|https://www.accesstoinsight.org/,BuddhaNet|https://www.buddhanet.net/";

/** PARTNER_LINKS and FOLLOW_LINKS: comma-separated "Name|https://url" pairs. */
const linkList = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((value) => value ?? fallback)
      .transform((value, ctx) => {
        const links = value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean)
          .map((entry) => {
            const [label = "", href = ""] = entry.split("|").map((part) => part.trim());
            return { label, href };
          });
        for (const link of links) {
          if (!link.label || !webUrl.safeParse(link.href).success || !link.href) {
            ctx.addIssue({
              code: "custom",
              message: 'must be a comma-separated list of "Name|https://url" pairs',
            });
            return z.NEVER;
          }
        }
        return links;
      }),
  );

/** SITE_LANGUAGE: a BCP 47 tag with translations in locales/. */
const language = z.preprocess(emptyToUndefined, z.string().optional()).transform((value, ctx) => {
  const resolved = resolveLanguage(value ?? DEFAULT_LANGUAGE);
  if (resolved.ok) return { tag: resolved.tag, translations: resolved.translations };
  ctx.addIssue({ code: "custom", message: resolved.problem });
  return z.NEVER;
});

/** SITE_TRADITION: whose words, mark and encyclopedia article the home page has (app/site/traditions.ts). */
const tradition = z
  .preprocess(emptyToUndefined, z.enum(TRADITIONS, { error: `must be one of ${TRADITIONS.join(", ")}` }).optional())
  .transform((value) => value ?? "zen");

const offUnlessOn = z
  .preprocess(emptyToUndefined, z.enum(["on", "off"], { error: 'must be "on" or "off"' }).optional())
  .transform((value) => value ?? "off");

/** FEDIVERSE_HANDLE: the name readers follow the site by (app/site/fediverse-handle.ts). */
const fediverseHandle = z.preprocess(
  (value) => (typeof value === "string" ? emptyToUndefined(value.trim().replace(/^@/, "").toLowerCase()) : value),
  z.string().regex(HANDLE_PATTERN, "must be 1 to 30 letters a-z, digits or _ (as zen or zen_center)").optional(),
);

/** The settings each site may have its own of (in a sites file); the environment gives the defaults. */
const siteSchema = z.object({
  SITE_PRODUCT: text("Zen"),
  SITE_TRADITION: tradition,
  SITE_NAME: optionalText,
  SITE_URL: webUrl,
  SITE_DOMAIN: hostName,
  SITE_LANGUAGE: language,
  DONATION_URL: webUrl,
  ENCYCLOPEDIA_URL: webUrl,
  PARTNER_LINKS: linkList(defaultPartners),
  FOLLOW_LINKS: linkList(""),
  RSS_FEED_EMBED_URL: webUrl,
  LEAD_FORM_URL: webUrl,
  LEAD_FORM_CATEGORY: text("general"),
  LEAD_FORM_CATEGORY_PARAM: text("category"),
  LEAD_FORM_SCRIPT_URL: webUrl,
  AD_SCRIPT_URL: webUrl,
  BLOG_API_URL: webUrl,
  BLOG_API_TOKEN: optionalText,
  CONTENT_DIR: optionalText,
  ABOUT_FILE: optionalText,
  FEDIVERSE: offUnlessOn,
  FEDIVERSE_HANDLE: fediverseHandle,
});

export type SiteSettingName = keyof typeof siteSchema.shape;
export const SITE_SETTING_NAMES = Object.keys(siteSchema.shape) as SiteSettingName[];

/** The settings of the process, shared by all its sites. */
const serverSchema = z.object({
  BLOG_API_TIMEOUT_MS: integer(4000, 100, 30_000, "milliseconds"),
  CACHE_FRESH_SECONDS: seconds(60),
  HTML_MAX_AGE: seconds(60),
  HTML_S_MAXAGE: seconds(300),
  HTML_STALE_WHILE_REVALIDATE: seconds(600),
  HTML_STALE_IF_ERROR: seconds(86_400),
  CACHE_STALE_SECONDS: seconds(86_400),
  PAGE_CACHE_SECONDS: seconds(5),
  ALLOWED_HOSTS: z.preprocess(emptyToUndefined, z.string().optional()).transform((value, ctx) => {
    const { patterns, problems } = parseAllowedHosts(value);
    for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
    return patterns;
  }),
  SITES_FILE: optionalText,
  HSTS_MAX_AGE: seconds(0),
  IMAGE_HOSTS: hostList,
  FEDIVERSE_HOSTS: hostList,
  IMAGE_CACHE_DIR: text(".cache/images"),
  IMAGE_CACHE_MAX_MB: integer(512, 1, 1_000_000, "megabytes"),
  IMAGE_FETCH_TIMEOUT_MS: integer(8000, 500, 60_000, "milliseconds"),
  IMAGE_URL_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  PORT: integer(3000, 1, 65_535, "port"),
  HOST: optionalText,
  METRICS_PORT: optionalInteger(1, 65_535, "port"),
  METRICS_HOST: text("127.0.0.1"),
  ANALYTICS: onUnlessOff,
  CATALOGUE_DIR: text(".cache/catalog"),
  CATALOGUE_SYNC: onUnlessOff,
  CATALOGUE_CALLS_PER_SECOND: integer(5, 1, 1000, "calls a second"),
  CATALOGUE_SWEEP_SECONDS: integer(86_400, 60, 31_536_000, "seconds"),
  CATALOGUE_DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a PostgreSQL address, "postgres://user:password@host:5432/database"')
      .optional(),
  ),
  CATALOGUE_DATABASE_POOL: integer(5, 1, 100, "connections"),
});

/**
 * Old names still accepted, so that no deployment breaks: the search store's settings were CATALOG_*,
 * the word the language files used too (docs/decisions/063). Setting both names of one setting is a problem.
 */
const SETTING_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  ["DIR", "SYNC", "CALLS_PER_SECOND", "SWEEP_SECONDS", "DATABASE_URL", "DATABASE_POOL"].map((name) => [
    `CATALOG_${name}`,
    `CATALOGUE_${name}`,
  ]),
);

export const SERVER_SETTING_NAMES = [...Object.keys(serverSchema.shape), ...Object.keys(SETTING_ALIASES)];

export type SiteSettings = ReturnType<typeof toSiteSettings>;

/**
 * The embedded articles of a site that names no CONTENT_DIR: its language's folder, content/<translations>
 * (content/my for a Burmese site, content/zh-Hans for zh-CN), where there is one; English's, and any
 * language's without one, are content/blog (docs/decisions/049).
 */
export function defaultContentDir(translations: string): string {
  const own = path.join("content", translations);
  return translations !== DEFAULT_LANGUAGE && existsSync(own) ? own : path.join("content", "blog");
}

/**
 * One site's identity and content source. `key` names this exact configuration: the caches of a site
 * are keyed by it, so a site changed by a reload starts with empty ones. `hosts` is empty for the one
 * site of a process without a sites file, which answers any allowed host.
 */
function toSiteSettings(env: z.infer<typeof siteSchema>, timeoutMs: number, hosts: string[] = []) {
  const product = env.SITE_PRODUCT;
  const contentDir = path.resolve(env.CONTENT_DIR ?? defaultContentDir(env.SITE_LANGUAGE.translations));
  const site = {
    hosts,
    /** How logs and problems name the site: its first host. */
    label: hosts[0] ?? "default",
    product,
    siteName: env.SITE_NAME ?? `${product} Buddhism`,
    siteUrl: env.SITE_URL ? new URL(env.SITE_URL).origin : undefined,
    siteDomain: env.SITE_DOMAIN,
    /** The tag the pages carry and the translations whose words they use (de-AT takes de's). */
    language: env.SITE_LANGUAGE,
    donationUrl: env.DONATION_URL,
    tradition: env.SITE_TRADITION,
    encyclopediaUrl: env.ENCYCLOPEDIA_URL ?? defaultEncyclopediaUrl(env.SITE_TRADITION, product),
    partnerLinks: env.PARTNER_LINKS,
    /** The community's own social links, beside its handle in the footer's Follow Us block. */
    followLinks: env.FOLLOW_LINKS,
    rssFeedEmbedUrl: env.RSS_FEED_EMBED_URL,
    leadForm: {
      url: env.LEAD_FORM_URL,
      category: env.LEAD_FORM_CATEGORY,
      categoryParam: env.LEAD_FORM_CATEGORY_PARAM,
      scriptUrl: env.LEAD_FORM_SCRIPT_URL,
    },
    adScriptUrl: env.AD_SCRIPT_URL,
    blogApi: env.BLOG_API_URL
      ? { url: env.BLOG_API_URL.replace(/\/+$/, ""), token: env.BLOG_API_TOKEN ?? "", timeoutMs }
      : undefined,
    contentDir,
    /** The community's own About text, in place of its tradition's paragraphs (app/blog/about-text.server.ts). */
    about: aboutSourceOf(env.ABOUT_FILE, contentDir),
    /** Followable from the social web (app/fediverse) under this handle; none unless FEDIVERSE=on. */
    fediverse: env.FEDIVERSE === "on" ? { handle: env.FEDIVERSE_HANDLE ?? defaultHandle(product) } : undefined,
  };
  return { ...site, key: createHash("sha256").update(JSON.stringify(site)).digest("base64url").slice(0, 16) };
}

export type Settings = ReturnType<typeof toSettings>;

function toSettings(env: z.infer<typeof serverSchema>, site: SiteSettings) {
  return {
    /** The site made of the environment alone: the only one without SITES_FILE, the defaults of each with it. */
    site,
    sitesFile: env.SITES_FILE ? path.resolve(env.SITES_FILE) : undefined,
    blogApiTimeoutMs: env.BLOG_API_TIMEOUT_MS,
    cache: { freshSeconds: env.CACHE_FRESH_SECONDS, staleSeconds: env.CACHE_STALE_SECONDS },
    httpCache: {
      maxAge: env.HTML_MAX_AGE,
      sMaxAge: env.HTML_S_MAXAGE,
      staleWhileRevalidate: env.HTML_STALE_WHILE_REVALIDATE,
      staleIfError: env.HTML_STALE_IF_ERROR,
    },
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    allowedHosts: env.ALLOWED_HOSTS,
    hstsMaxAge: env.HSTS_MAX_AGE,
    images: {
      hosts: env.IMAGE_HOSTS,
      cacheDir: path.resolve(env.IMAGE_CACHE_DIR),
      cacheMaxBytes: env.IMAGE_CACHE_MAX_MB * 1024 * 1024,
      urlSecret: env.IMAGE_URL_SECRET,
      fetchTimeoutMs: env.IMAGE_FETCH_TIMEOUT_MS,
    },
    /** Hosts the federation may reach besides public addresses (app/fediverse/outgoing.ts). */
    fediverseHosts: env.FEDIVERSE_HOSTS ?? [],
    port: env.PORT,
    host: env.HOST,
    /** The catalogue of every site's articles, for search (app/search, docs/decisions/031). */
    catalogue: {
      dir: path.resolve(env.CATALOGUE_DIR),
      sync: env.CATALOGUE_SYNC === "on",
      callsPerSecond: env.CATALOGUE_CALLS_PER_SECOND,
      sweepSeconds: env.CATALOGUE_SWEEP_SECONDS,
      /** PostgreSQL instead of a SQLite file per site, for origins on several machines (docs/decisions/036). */
      database: env.CATALOGUE_DATABASE_URL
        ? { url: env.CATALOGUE_DATABASE_URL, poolSize: env.CATALOGUE_DATABASE_POOL }
        : undefined,
    },
    /** Prometheus metrics on a listener of their own (app/metrics); none when METRICS_PORT is unset. */
    metrics: env.METRICS_PORT ? { port: env.METRICS_PORT, host: env.METRICS_HOST } : undefined,
    /**
     * Readers' beacons to the site's own origin (app/vitals, docs/decisions/047 and 050): on unless
     * ANALYTICS=off. Page views go to the daily counts beside the catalogue (app/counts); Web Vitals only
     * with somewhere to go (METRICS_PORT).
     */
    analytics: env.ANALYTICS === "on",
    webVitals: env.ANALYTICS === "on" && env.METRICS_PORT !== undefined,
  };
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** What is wrong, setting by setting, under the name the operator set (an old name when that is the one set). */
const describe = (issues: z.core.$ZodIssue[], names: Record<string, string> = {}) =>
  issues.map((issue) => {
    const name = issue.path.join(".");
    return `${names[name] ?? (name || "environment")} ${issue.message}`;
  });

/** Pure: the environment with each old name read as its new one, the old names used, and any setting set under both. */
function withAliases(env: Env): { env: Env; used: Record<string, string>; problems: string[] } {
  const read: Env = { ...env };
  const used: Record<string, string> = {};
  const problems: string[] = [];
  for (const [old, name] of Object.entries(SETTING_ALIASES)) {
    if (env[old] === undefined) continue;
    if (env[name] !== undefined && env[name] !== env[old])
      problems.push(`${old} is the old name of ${name}: set one of them`);
    else if (env[name] === undefined) {
      read[name] = env[old];
      used[name] = old;
    }
  }
  return { env: read, used, problems };
}

/**
 * Pure: one site's settings from an environment-like object (the environment itself, or a site of the
 * sites file laid over it), with what is wrong, setting by setting.
 */
export function parseSiteSettings(
  env: Env,
  timeoutMs: number,
  hosts?: string[],
): { ok: true; site: SiteSettings } | { ok: false; problems: string[] } {
  const result = siteSchema.safeParse(env);
  const problems = result.success ? [] : describe(result.error.issues);
  // Checked apart from the schema so it is reported together with every other problem.
  if (env.BLOG_API_URL?.trim() && !env.BLOG_API_TOKEN?.trim()) {
    problems.push("BLOG_API_TOKEN is required when BLOG_API_URL is set");
  }
  if (result.success && result.data.FEDIVERSE === "on" && !result.data.SITE_URL) {
    problems.push(
      "SITE_URL is required when FEDIVERSE is on: the site's actor and articles are named by their full address",
    );
  }
  if (!result.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, site: toSiteSettings(result.data, timeoutMs, hosts) };
}

/** Pure: reads an environment object and says what is wrong with it, setting by setting. */
export function parseSettings(given: Env): SettingsResult {
  const { env, used, problems: aliasProblems } = withAliases(given);
  const server = serverSchema.safeParse(env);
  const timeoutMs = server.success ? server.data.BLOG_API_TIMEOUT_MS : 4000;
  const site = parseSiteSettings(env, timeoutMs);
  const problems = [
    ...(site.ok ? [] : site.problems),
    ...(server.success ? [] : describe(server.error.issues, used)),
    ...aliasProblems,
  ];
  if (server.success && server.data.SITES_FILE && server.data.ALLOWED_HOSTS) {
    problems.push("ALLOWED_HOSTS must be unset with SITES_FILE: the hosts of the sites file are the allowed hosts");
  }
  if (server.success && server.data.METRICS_PORT === server.data.PORT) {
    problems.push("METRICS_PORT must differ from PORT: the metrics are never served on the public port");
  }
  if (!server.success || !site.ok || problems.length > 0) return { ok: false, problems };
  return { ok: true, settings: toSettings(server.data, site.site) };
}

let cached: Settings | undefined;

/** The process's settings. Exits with a readable list when they are wrong: that is an operator error. */
export function getSettings(): Settings {
  if (cached) return cached;
  const result = parseSettings(process.env);
  if (!result.ok) stopWith("these settings are wrong (see .env.example)", result.problems);
  cached = result.settings;
  return cached;
}

/** Stops the process at start with one line per problem. */
export function stopWith(what: string, problems: string[]): never {
  console.error(`The site cannot start: ${what}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  process.exit(1);
}

/**
 * The site a request is for: the one the server found by the request's host (server/main.ts puts it in
 * the load context), or the environment's when the app runs under another server (`npm run dev`).
 */
export function siteOf(context: AppLoadContext | undefined): SiteSettings {
  return context?.site ?? getSettings().site;
}

/** What the browser may see. The credential and server paths never leave the server. */
export function publicSettings(site: SiteSettings) {
  return {
    product: site.product,
    siteName: site.siteName,
    donationUrl: site.donationUrl,
    encyclopediaUrl: site.encyclopediaUrl,
    /** The tradition's mark, drawn by the header, the hero and the footer (sent, not bundled: one of five). */
    mark: MARKS[site.tradition],
    partnerLinks: site.partnerLinks,

    rssFeedEmbedUrl: site.rssFeedEmbedUrl,
    leadFormUrl: site.leadForm.url
      ? withParam(site.leadForm.url, site.leadForm.categoryParam, site.leadForm.category)
      : undefined,
    leadFormScriptUrl: site.leadForm.scriptUrl,
    adScriptUrl: site.adScriptUrl,
  };
}

export type PublicSettings = ReturnType<typeof publicSettings>;

function withParam(href: string, name: string, value: string) {
  const url = new URL(href);
  url.searchParams.set(name, value);
  return url.toString();
}

/** Where the site lives, for absolute links: SITE_URL when set, else the origin the request came to. */
export function siteOrigin(request: Request, site: SiteSettings): string {
  return site.siteUrl ?? new URL(request.url).origin;
}

/** The handle readers follow the site by on the social web, as they type it (@zen@zen.example.org); none unless FEDIVERSE=on. */
export function fediverseHandleOf(site: SiteSettings): string | undefined {
  return site.fediverse && site.siteUrl ? `@${site.fediverse.handle}@${new URL(site.siteUrl).host}` : undefined;
}

/** The site's language: its tag, direction and words (made once per language). */
export function languageOf(site: SiteSettings) {
  return siteLanguage(site.language, site.tradition, site.siteName);
}

/** The site's identity for page metadata: names from the settings, origin from SITE_URL or the request, its language. */
export function siteIdentity(request: Request, site: SiteSettings) {
  return {
    product: site.product,
    siteName: site.siteName,
    origin: siteOrigin(request, site),
    language: languageOf(site),
  };
}
