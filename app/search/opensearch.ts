import { escapeMarkup } from "~/document/escape-markup";
import type { SiteIdentity } from "~/crawlers/seo";

/** https://github.com/dewitt/opensearch: the site's name, its results page's address template, its icon. */
export function openSearchXml(site: SiteIdentity): string {
  const { t } = site.language.translator;
  // ShortName: at most 16 characters.
  const shortName = [...site.siteName].slice(0, 16).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${escapeMarkup(shortName)}</ShortName>
  <Description>${escapeMarkup(t("search.openSearch", { site: site.siteName }))}</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <Language>${escapeMarkup(site.language.lang)}</Language>
  <Image width="16" height="16" type="image/svg+xml">${escapeMarkup(`${site.origin}/favicon.svg`)}</Image>
  <Url type="text/html" method="get" template="${escapeMarkup(`${site.origin}/search?q={searchTerms}`)}"/>
</OpenSearchDescription>
`;
}
