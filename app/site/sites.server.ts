import { readFileSync, statSync } from "node:fs";
import { parseDocument } from "yaml";
import {
  getSettings,
  parseSiteSettings,
  SERVER_SETTING_NAMES,
  SITE_SETTING_NAMES,
  stopWith,
  type Settings,
  type SiteSettings,
  type SiteSettingName,
} from "./config.server";
import { parseHostPattern } from "./host";
import { metrics } from "~/metrics/record.server";
import { createSiteDirectory, type SiteDirectory } from "./site-directory";

/**
 * Many sites from one process (SITES_FILE, docs/decisions/020): each host finds its site, and SIGHUP
 * reads the file again. Without SITES_FILE there is one site, made of the environment, for every host.
 */

type Env = Record<string, string | undefined>;
type Loaded =
  { ok: true; sites: SiteSettings[]; directory: SiteDirectory<SiteSettings> } | { ok: false; problems: string[] };

const SITE_SETTINGS = new Set<string>(SITE_SETTING_NAMES);
const SERVER_SETTINGS = new Set<string>(SERVER_SETTING_NAMES);

/**
 * Pure: the sites of a sites file's text, each laid over the environment, or one line per problem
 * naming the site (by its first host) and the setting.
 */
export function parseSitesFile(text: string, env: Env, timeoutMs: number, fileName = "the sites file"): Loaded {
  const document = parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) => `${fileName} is not valid YAML: ${error.message.split("\n")[0]}`),
    };
  }
  const data: unknown = document.toJS();
  const list = isMapping(data) ? data.sites : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    return { ok: false, problems: [`${fileName} must have a list "sites:" with at least one site`] };
  }
  const parsed = list.map((entry: unknown, index) => parseSite(entry, index, env, timeoutMs));
  const problems = parsed.flatMap((site) => site.problems);
  const sites = parsed.flatMap((site) => (site.ok ? [site.site] : []));
  // Hosts claimed twice are found among all sites, a site with other problems included.
  problems.push(
    ...createSiteDirectory(parsed.map(({ label, hosts }) => ({ label, hosts, site: label }))).problems,
    ...sharedCanonicalOrigins(sites),
  );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, sites, directory: directoryOf(sites) };
}

const directoryOf = (sites: SiteSettings[]) =>
  createSiteDirectory(sites.map((site) => ({ label: site.label, hosts: site.hosts, site })));

function parseSite(entry: unknown, index: number, env: Env, timeoutMs: number) {
  const rawHosts = isMapping(entry) ? entry.hosts : undefined;
  const hostList: unknown[] = Array.isArray(rawHosts)
    ? rawHosts
    : rawHosts === undefined || rawHosts === null
      ? []
      : [rawHosts];
  const first = hostList[0];
  const label =
    typeof first === "string" && first.trim() ? (parseHostPattern(first) ?? first.trim()) : `number ${index + 1}`;
  const problems: string[] = [];
  const problem = (text: string) => problems.push(`site ${label}: ${text}`);
  const hosts: string[] = [];
  if (!isMapping(entry)) {
    problem("must be a mapping with hosts and settings");
    return { ok: false as const, problems, label, hosts };
  }
  if (hostList.length === 0) problem("hosts must list at least one host name, such as [zen.example.org]");
  for (const host of hostList) {
    const pattern = typeof host === "string" ? parseHostPattern(host) : undefined;
    if (pattern) hosts.push(pattern);
    else
      problem(
        `hosts has ${JSON.stringify(host)}: each must be a host name such as zen.example.org or a pattern such as *.example.org, without port`,
      );
  }
  const own: Partial<Record<SiteSettingName, string>> = {};
  for (const [name, value] of Object.entries(entry)) {
    if (name === "hosts") continue;
    if (!SITE_SETTINGS.has(name)) {
      problem(
        SERVER_SETTINGS.has(name)
          ? `${name} applies to the whole process: set it in the environment`
          : `${name} is not a setting a site can have`,
      );
    } else if (value === null || typeof value === "string" || typeof value === "number") {
      // An empty value turns the environment's setting off for this site.
      own[name as SiteSettingName] = value === null ? "" : String(value);
    } else {
      problem(`${name} must be text`);
    }
  }
  const merged = withOwnSource({ ...env, ...own }, own, env, problem);
  const parsed = parseSiteSettings(merged, timeoutMs, hosts);
  if (!parsed.ok) parsed.problems.forEach(problem);
  else if (!parsed.site.blogApi && !isFolder(parsed.site.contentDir))
    problem(`CONTENT_DIR has no folder at ${parsed.site.contentDir}`);
  return problems.length === 0 && parsed.ok
    ? { ok: true as const, site: parsed.site, problems, label, hosts }
    : { ok: false as const, problems, label, hosts };
}

/**
 * A site's own content source wins over the environment's: CONTENT_DIR alone means its embedded
 * articles even when the environment names a backend. And the environment's credential only ever goes
 * to the environment's backend: a site with a backend of its own must give its own credential.
 */
function withOwnSource(merged: Env, own: Env, env: Env, problem: (text: string) => void): Env {
  const ownApi = own.BLOG_API_URL?.trim();
  if (ownApi && own.CONTENT_DIR?.trim())
    problem("set BLOG_API_URL or CONTENT_DIR, not both: a site has one source of articles");
  if (!ownApi && own.CONTENT_DIR?.trim()) return { ...merged, BLOG_API_URL: "", BLOG_API_TOKEN: "" };
  // Without its own, the check reports "BLOG_API_TOKEN is required when BLOG_API_URL is set".
  if (ownApi && ownApi !== env.BLOG_API_URL?.trim()) return { ...merged, BLOG_API_TOKEN: own.BLOG_API_TOKEN };
  return merged;
}

/** Two sites with one SITE_URL would each call the other's pages their own (canonical links, sitemaps). */
function sharedCanonicalOrigins(sites: SiteSettings[]): string[] {
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const site of sites) {
    if (!site.siteUrl) continue;
    const owner = owners.get(site.siteUrl);
    if (owner) problems.push(`site ${site.label}: SITE_URL ${site.siteUrl} is site ${owner}'s too`);
    else owners.set(site.siteUrl, site.label);
  }
  return problems;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFolder(dir: string) {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function loadSitesFile(file: string, settings: Settings, env: Env): Loaded {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return {
      ok: false,
      problems: [`SITES_FILE ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`],
    };
  }
  return parseSitesFile(text, env, settings.blogApiTimeoutMs, file);
}

/** The sites the process serves now, after the last reload that applied: for the operator's report. */
let served: readonly SiteSettings[] = [];
export const servedSites = () => served;

/** The sites the settings name, read as the server reads them at start, for `npm run report`: nothing starts. */
export function readSites(
  settings: Settings = getSettings(),
  env: Env = process.env,
): { ok: true; sites: SiteSettings[] } | { ok: false; problems: string[] } {
  return settings.sitesFile ? loadSitesFile(settings.sitesFile, settings, env) : { ok: true, sites: [settings.site] };
}

export type ReloadResult =
  | { ok: true; sites: number; added: string[]; changed: string[]; removed: string[]; dropped: string[] }
  | { ok: false; problems: string[] };

export type SiteRegistry = {
  /** The site of a host name from parseHostHeader, or undefined when no site has it. */
  find(name: string): SiteSettings | undefined;
  /** Reads the sites file again; on any problem the running sites stay as they were. */
  reload(): ReloadResult;
};

/** What serves the sites (app/services), told as sites come and go. */
export type SiteLifecycle = {
  /** A site now served: its catalogue may open and start its sync. */
  start(site: SiteSettings): void;
  /** The cached content of sites that a reload changed or removed, by their keys, is dropped. */
  forget(siteKeys: string[]): void;
  /** The syncs of sites that a reload changed or removed stop (before the sites that replace them start theirs). */
  retire(sites: readonly SiteSettings[]): Promise<void>;
};

/**
 * The process's sites, checked at start: a sites file with any problem stops the server with one line
 * per problem. Called by server/main.ts through the build, before it listens.
 */
export function startSites(settings: Settings, lifecycle: SiteLifecycle, env: Env = process.env): SiteRegistry {
  const file = settings.sitesFile;
  if (!file) {
    served = [settings.site];
    metrics.sitesLoaded(1, false);
    lifecycle.start(settings.site);
    return {
      find: () => settings.site,
      // Nothing to read again: the one site stays as it is.
      reload: () => ({ ok: true, sites: 1, added: [], changed: [], removed: [], dropped: [] }),
    };
  }
  const first = loadSitesFile(file, settings, env);
  if (!first.ok) stopWith(`the sites file is wrong`, first.problems);
  metrics.sitesLoaded(first.sites.length, false);
  for (const site of first.sites) lifecycle.start(site);
  let current = first;
  served = first.sites;
  return {
    find: (name) => current.directory.find(name),
    reload() {
      const next = loadSitesFile(file, settings, env);
      if (!next.ok) return (metrics.sitesReloadFailed(), next);
      // An unchanged site keeps its object, and with it its caches (app/services/site-services.server.ts).
      const before = new Map(current.sites.map((site) => [site.key, site]));
      const sites = next.sites.map((site) => before.get(site.key) ?? site);
      const labels = new Set(current.sites.map((site) => site.label));
      const nextLabels = new Set(sites.map((site) => site.label));
      const kept = new Set(sites.map((site) => site.key));
      const dropped = [...before.keys()].filter((key) => !kept.has(key));
      // Their rendered pages are the server's to drop (server/main.ts).
      lifecycle.forget(dropped);
      // Their syncs stop now, before the sites that replace them start theirs.
      void lifecycle.retire(dropped.map((key) => before.get(key)!));
      current = { ok: true, sites, directory: directoryOf(sites) };
      served = sites;
      for (const site of sites) lifecycle.start(site);
      metrics.sitesLoaded(sites.length, true);
      return {
        ok: true,
        sites: sites.length,
        added: sites.filter((site) => !labels.has(site.label)).map((site) => site.label),
        changed: sites.filter((site) => labels.has(site.label) && !before.has(site.key)).map((site) => site.label),
        removed: [...labels].filter((label) => !nextLabels.has(label)),
        dropped,
      };
    },
  };
}
