import { parseHostHeader } from "./host";

/**
 * The `domain` the backend is asked about: the Host header's name, lower-cased, without port and
 * without a leading "www.". Returns undefined for anything that is not a plain host name, so a
 * hostile header can never reach the backend query or a cache key.
 */
export function domainFromHost(host: string | null | undefined): string | undefined {
  const name = parseHostHeader(host)?.name;
  if (!name) return undefined;
  return name.startsWith("www.") && name.length > 4 ? name.slice(4) : name;
}
