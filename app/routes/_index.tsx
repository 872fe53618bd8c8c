import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdRow } from "~/components/AdRow";
import { About, Contact, Hero, Resources } from "~/components/home/HomeSections";
import { servicesOf } from "~/services/context.server";
import { loaderHeaders } from "~/document/route-headers";
import { aboutHtml } from "~/blog/about-text.server";
import { siteIdentity, siteOf } from "~/site/config.server";
import { homeMeta } from "~/crawlers/page-meta.server";
import { useSiteSettings } from "~/root";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const site = siteOf(context);
  return data(
    { meta: homeMeta(siteIdentity(request, site)), about: await aboutHtml(site) },
    { headers: servicesOf(context).httpCache.headers("page") },
  );
}

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function Home() {
  const settings = useSiteSettings();
  const { about } = useLoaderData<typeof loader>();
  return (
    <>
      <Hero product={settings.product} mark={settings.mark} />
      <AdRow name="home-top" scriptUrl={settings.adScriptUrl} />
      <About product={settings.product} encyclopediaUrl={settings.encyclopediaUrl} ownText={about} />
      <AdRow name="home-middle" />
      <Resources feedUrl={settings.rssFeedEmbedUrl} />
      <AdRow name="home-bottom" />
      <Contact formUrl={settings.leadFormUrl} scriptUrl={settings.leadFormScriptUrl} />
    </>
  );
}
