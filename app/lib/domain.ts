const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const hostnamePattern = new RegExp(`^${label}(?:\\.${label})*$`);

/**
 * The `domain` the backend is asked about: the Host header's name, lower-cased, without port and
 * without a leading "www.". Returns undefined for anything that is not a plain host name, so a
 * hostile header can never reach the backend query or a cache key.
 */
export function domainFromHost(host: string | null | undefined): string | undefined {
  if (!host || host.length > 260) return undefined;
  const name = host.trim().toLowerCase().replace(/:\d{1,5}$/, "").replace(/\.$/, "");
  if (name.length === 0 || name.length > 253 || !hostnamePattern.test(name)) return undefined;
  return name.startsWith("www.") && name.length > 4 ? name.slice(4) : name;
}
