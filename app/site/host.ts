// Shared by the HTTP server (server/) and the app: one definition of a valid Host.

const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const hostnamePattern = new RegExp(`^${label}(?:\\.${label})*$`);

/**
 * Splits a Host header into a lower-case host name and port, or returns undefined when it is not a
 * plain DNS name or IPv4 address with an optional valid port. IPv6 literals are not accepted: a public
 * site is reached by name.
 */
export function parseHostHeader(
  header: string | null | undefined,
): { name: string; port: number | undefined } | undefined {
  if (!header || header.length > 260) return undefined;
  const match = /^([^:]+?)\.?(?::(\d{1,5}))?$/.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, name = "", portText] = match;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (name.length > 253 || !hostnamePattern.test(name)) return undefined;
  // A name whose last label is a number must be a valid IPv4 address ("a.0", "999.1.1.1" are not):
  // the URL parser, which the Remix adapter runs on every request, throws on it.
  if (!URL.canParse(`http://${name}/`)) return undefined;
  return { name, port };
}

/**
 * Reads ALLOWED_HOSTS: comma-separated host names, "*.example.org" for any subdomain of example.org.
 * Returns undefined patterns when unset (every valid host allowed), and the list of problems.
 */
export function parseAllowedHosts(value: string | undefined): { patterns: string[] | undefined; problems: string[] } {
  if (!value || !value.trim()) return { patterns: undefined, problems: [] };
  const patterns = value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  const problems = patterns
    .filter((pattern) => !hostnamePattern.test(pattern.startsWith("*.") ? pattern.slice(2) : pattern))
    .map((pattern) => `"${pattern}" is not a host name or *.domain pattern`);
  return { patterns, problems };
}

/** Whether a host name from parseHostHeader is one of the patterns from parseAllowedHosts. */
export function isAllowedHost(name: string, patterns: string[] | undefined): boolean {
  if (!patterns) return true;
  return patterns.some((pattern) => (pattern.startsWith("*.") ? name.endsWith(pattern.slice(1)) : name === pattern));
}

/**
 * Reads one host of a sites file: a host name or a "*.example.org" pattern, lower case, without port;
 * only what a Host header can carry (parseHostHeader), and a pattern over a domain, not a whole top-level
 * domain ("*.org").
 */
export function parseHostPattern(entry: string): string | undefined {
  const pattern = entry.trim().toLowerCase().replace(/\.$/, "");
  const wildcard = pattern.startsWith("*.");
  const name = wildcard ? pattern.slice(2) : pattern;
  if (wildcard && !name.includes(".")) return undefined;
  return parseHostHeader(name)?.name === name ? pattern : undefined;
}
