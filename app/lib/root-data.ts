/** The public settings as route `meta` functions see them (from the root loader's data). */
export type SiteIdentity = { product: string; siteName: string };

export function siteIdentity(matches: ReadonlyArray<{ id: string; data?: unknown }>): SiteIdentity {
  const root = matches.find((match) => match.id === "root")?.data as { settings?: SiteIdentity } | undefined;
  const product = root?.settings?.product ?? "Zen";
  return { product, siteName: root?.settings?.siteName ?? `${product} Buddhism` };
}
