import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { AdRow } from "~/components/AdRow";
import { About, Contact, Hero, Resources } from "~/components/home/HomeSections";
import { cacheHeaders } from "~/lib/http-cache.server";
import { loaderHeaders } from "~/lib/route-headers";
import { absoluteUrl, pageMeta, siteIdentity } from "~/lib/seo";
import { useSiteSettings } from "~/root";

export async function loader(_args: LoaderFunctionArgs) {
  return data(null, { headers: cacheHeaders("page") });
}

export const headers = loaderHeaders;

export const meta: MetaFunction = ({ matches }) => {
  const site = siteIdentity(matches);
  return pageMeta({
    site,
    path: "/",
    title: `${site.siteName} · Discover the Ancient Wisdom of ${site.product} Buddhism`,
    description: `Meditation guidance, teachings and community for anyone curious about ${site.product} Buddhism: start sitting, read the blog, and get in touch.`,
    jsonLd: [{ "@type": "WebSite", name: site.siteName, url: absoluteUrl(site.origin, "/") }],
  });
};

export default function Home() {
  const settings = useSiteSettings();
  return (
    <>
      <Hero product={settings.product} />
      <AdRow name="home-top" scriptUrl={settings.adScriptUrl} />
      <About product={settings.product} encyclopediaUrl={settings.encyclopediaUrl} />
      <AdRow name="home-middle" />
      <Resources feedUrl={settings.rssFeedEmbedUrl} />
      <AdRow name="home-bottom" />
      <Contact formUrl={settings.leadFormUrl} scriptUrl={settings.leadFormScriptUrl} />
    </>
  );
}
