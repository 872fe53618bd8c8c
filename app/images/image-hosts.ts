import ipaddr from "ipaddr.js";

/**
 * Which image sources the server may fetch. Only addresses on the public internet ("unicast" in
 * ipaddr.js's terms): loopback, private, link-local, unique-local, unspecified, multicast, carrier-grade
 * NAT and the other reserved ranges are refused, IPv4-mapped IPv6 addresses included.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

/** The URL's host without IPv6 brackets, as DNS or an address check wants it. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Whether IMAGE_HOSTS lists the URL's host: an entry "host" allows it on any port, "host:port" on
 * that port only (the scheme's default port when the URL names none).
 */
export function isListedHost(url: URL, hosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return hosts.some((entry) => entry === host || entry === `${host}:${port}`);
}
