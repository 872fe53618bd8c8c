import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SearchResults } from "~/components/search/SearchResults";
import { servicesOf } from "~/services/context.server";
import { loadSearchPage } from "~/search/search-page.server";
import { loaderHeaders } from "~/document/route-headers";

export const loader = ({ request, context }: LoaderFunctionArgs) => {
  const services = servicesOf(context);
  const catalogue = { open: () => services.catalogue(services.domainOf(request)), syncs: services.catalogueSyncs };
  return loadSearchPage(request, services.site, catalogue, services.httpCache);
};

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function SearchPage() {
  return <SearchResults loaded={useLoaderData<typeof loader>()} />;
}
