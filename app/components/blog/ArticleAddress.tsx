import type { MetaDescriptor } from "@remix-run/react";
import { canonicalHref } from "~/crawlers/seo";

/**
 * The article's canonical address at its end, on paper only: a printout cannot link back to where it
 * came from. Taken from the page's own tags, so it is the address search engines are given.
 */
export function ArticleAddress({ meta }: { meta: readonly MetaDescriptor[] }) {
  const href = canonicalHref(meta);
  if (!href) return null;
  return (
    <p className="mt-10 hidden break-all text-sm print:block" data-article-address="">
      {href}
    </p>
  );
}
