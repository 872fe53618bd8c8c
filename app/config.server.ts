import path from "node:path";
import { z } from "zod";
import { parseAllowedHosts } from "~/lib/host";

/**
 * Every setting the site reads, checked once. An operator who gets one wrong sees a list of what is
 * wrong at start-up instead of a broken page later.
 */

const emptyToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

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

/** A whole number within bounds, with a default when unset. */
const integer = (fallback: number, min: number, max: number, unit: string) =>
  z
    .preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: `must be a whole number of ${unit}` })
        .int(`must be a whole number of ${unit}`)
        .min(min, `must be at least ${min}`)
        .max(max, `must be at most ${max}`)
        .optional(),
    )
    .transform((value) => value ?? fallback);

const seconds = (fallback: number) => integer(fallback, 0, 31_536_000, "seconds");

const hostName = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/, "must be a bare host name such as zen.example.org")
    .optional(),
);

const defaultPartners =
  "Access to Insight|https://www.accesstoinsight.org/,BuddhaNet|https://www.buddhanet.net/";

const partnerLinks = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value) => value ?? defaultPartners)
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

const envSchema = z
  .object({
    SITE_PRODUCT: text("Zen"),
    SITE_NAME: optionalText,
    SITE_URL: webUrl,
    SITE_DOMAIN: hostName,
    DONATION_URL: webUrl,
    ENCYCLOPEDIA_URL: webUrl,
    PARTNER_LINKS: partnerLinks,
    RSS_FEED_EMBED_URL: webUrl,
    LEAD_FORM_URL: webUrl,
    LEAD_FORM_CATEGORY: text("general"),
    LEAD_FORM_CATEGORY_PARAM: text("category"),
    LEAD_FORM_SCRIPT_URL: webUrl,
    AD_SCRIPT_URL: webUrl,
    BLOG_API_URL: webUrl,
    BLOG_API_TOKEN: optionalText,
    BLOG_API_TIMEOUT_MS: integer(4000, 100, 30_000, "milliseconds"),
    CONTENT_DIR: text("content/blog"),
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
    HSTS_MAX_AGE: seconds(0),
    PORT: integer(3000, 1, 65_535, "port"),
    HOST: optionalText,
  });

export type Settings = ReturnType<typeof toSettings>;

function toSettings(env: z.infer<typeof envSchema>) {
  const product = env.SITE_PRODUCT;
  return {
    product,
    siteName: env.SITE_NAME ?? `${product} Buddhism`,
    siteUrl: env.SITE_URL ? new URL(env.SITE_URL).origin : undefined,
    siteDomain: env.SITE_DOMAIN,
    donationUrl: env.DONATION_URL,
    encyclopediaUrl:
      env.ENCYCLOPEDIA_URL ??
      `https://en.wikipedia.org/wiki/${encodeURIComponent(product.replace(/\s+/g, "_"))}`,
    partnerLinks: env.PARTNER_LINKS,
    rssFeedEmbedUrl: env.RSS_FEED_EMBED_URL,
    leadForm: {
      url: env.LEAD_FORM_URL,
      category: env.LEAD_FORM_CATEGORY,
      categoryParam: env.LEAD_FORM_CATEGORY_PARAM,
      scriptUrl: env.LEAD_FORM_SCRIPT_URL,
    },
    adScriptUrl: env.AD_SCRIPT_URL,
    blogApi: env.BLOG_API_URL
      ? {
          url: env.BLOG_API_URL.replace(/\/+$/, ""),
          token: env.BLOG_API_TOKEN ?? "",
          timeoutMs: env.BLOG_API_TIMEOUT_MS,
        }
      : undefined,
    contentDir: path.resolve(env.CONTENT_DIR),
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
    port: env.PORT,
    host: env.HOST,
  };
}

export type SettingsResult =
  | { ok: true; settings: Settings }
  | { ok: false; problems: string[] };

/** Pure: reads an environment object and says what is wrong with it, setting by setting. */
export function parseSettings(env: Record<string, string | undefined>): SettingsResult {
  const result = envSchema.safeParse(env);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`);
  // Checked apart from the schema so it is reported together with every other problem.
  if (env.BLOG_API_URL?.trim() && !env.BLOG_API_TOKEN?.trim()) {
    problems.push("BLOG_API_TOKEN is required when BLOG_API_URL is set");
  }
  if (!result.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, settings: toSettings(result.data) };
}

let cached: Settings | undefined;

/** The process's settings. Exits with a readable list when they are wrong: that is an operator error. */
export function getSettings(): Settings {
  if (cached) return cached;
  const result = parseSettings(process.env);
  if (!result.ok) {
    console.error(
      `The site cannot start: these settings are wrong (see .env.example):\n${result.problems
        .map((problem) => `  - ${problem}`)
        .join("\n")}`,
    );
    process.exit(1);
  }
  cached = result.settings;
  return cached;
}

/** What the browser may see. The credential and server paths never leave the server. */
export function publicSettings(settings: Settings = getSettings()) {
  return {
    product: settings.product,
    siteName: settings.siteName,
    donationUrl: settings.donationUrl,
    encyclopediaUrl: settings.encyclopediaUrl,
    partnerLinks: settings.partnerLinks,
    rssFeedEmbedUrl: settings.rssFeedEmbedUrl,
    leadFormUrl: settings.leadForm.url
      ? withParam(settings.leadForm.url, settings.leadForm.categoryParam, settings.leadForm.category)
      : undefined,
    leadFormScriptUrl: settings.leadForm.scriptUrl,
    adScriptUrl: settings.adScriptUrl,
  };
}

export type PublicSettings = ReturnType<typeof publicSettings>;

function withParam(href: string, name: string, value: string) {
  const url = new URL(href);
  url.searchParams.set(name, value);
  return url.toString();
}

/** Where the site lives, for absolute links: SITE_URL when set, else the origin the request came to. */
export function siteOrigin(request: Request, settings: Settings = getSettings()): string {
  return settings.siteUrl ?? new URL(request.url).origin;
}

/** The site's identity for page metadata: names from the settings, origin from SITE_URL or the request. */
export function siteIdentity(request: Request, settings: Settings = getSettings()) {
  return { product: settings.product, siteName: settings.siteName, origin: siteOrigin(request, settings) };
}
