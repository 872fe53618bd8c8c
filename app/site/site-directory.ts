/**
 * The sites of one process by host: exact names in one map, `*.domain` patterns in another keyed by
 * their domain. Finding a host costs one lookup for the name and one per label for the patterns, the
 * most specific first, however many sites there are.
 */
export type SiteDirectory<T> = { find(name: string): T | undefined; problems: string[] };

export function createSiteDirectory<T>(sites: { label: string; hosts: string[]; site: T }[]): SiteDirectory<T> {
  const exact = new Map<string, { label: string; site: T }>();
  const patterns = new Map<string, { label: string; site: T }>();
  const problems: string[] = [];
  for (const { label, hosts, site } of sites) {
    for (const host of new Set(hosts)) {
      const [map, key] = host.startsWith("*.") ? [patterns, host.slice(2)] : [exact, host];
      const owner = map.get(key);
      if (owner)
        problems.push(
          `site ${label}: hosts has ${host}, which ${owner.label === label ? "an earlier site" : `site ${owner.label}`} has too`,
        );
      else map.set(key, { label, site });
    }
  }
  return {
    problems,
    find(name) {
      const found = exact.get(name);
      if (found) return found.site;
      for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) {
        const match = patterns.get(name.slice(dot + 1));
        if (match) return match.site;
      }
      return undefined;
    },
  };
}
