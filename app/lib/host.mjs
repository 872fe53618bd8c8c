// Shared by the HTTP server (server.mjs, plain JavaScript) and the app: one definition of a valid Host.

const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const hostnamePattern = new RegExp(`^${label}(?:\\.${label})*$`);

/**
 * Splits a Host header into a lower-case host name and port, or returns undefined when it is not a
 * plain DNS name or IPv4 address with an optional valid port. IPv6 literals are not accepted: a public
 * site is reached by name.
 * @param {string | null | undefined} header
 * @returns {{ name: string, port: number | undefined } | undefined}
 */
export function parseHostHeader(header) {
  if (!header || header.length > 260) return undefined;
  const match = /^([^:]+?)\.?(?::(\d{1,5}))?$/.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, name = "", portText] = match;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  if (name.length > 253 || !hostnamePattern.test(name)) return undefined;
  return { name, port };
}
