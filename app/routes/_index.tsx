import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { AdRow } from "~/components/AdRow";
import { About, Contact, Hero, Resources } from "~/components/home/HomeSections";
import { cacheHeaders } from "~/document/http-cache.server";
import { loaderHeaders } from "~/document/route-headers";
import { siteIdentity, siteOf } from "~/site/config.server";
import { homeMeta } from "~/crawlers/page-meta.server";
import { useSiteSettings } from "~/root";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return data({ meta: homeMeta(siteIdentity(request, siteOf(context))) }, { headers: cacheHeaders("page") });
}

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

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
