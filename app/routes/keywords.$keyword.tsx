import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { KeywordArticles } from "~/components/search/KeywordArticles";
import { servicesOf } from "~/services/context.server";
import { loaderHeaders } from "~/document/route-headers";
import { loadKeywordPage } from "~/search/keyword-page.server";

export const loader = ({ request, context, params }: LoaderFunctionArgs) => {
  const services = servicesOf(context);
  return loadKeywordPage(request, services.site, params.keyword ?? "", {
    catalogue: () => services.catalogue(services.domainOf(request)),
    cardImage: services.images.cardImage,
    httpCache: services.httpCache,
  });
};

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function KeywordPage() {
  return <KeywordArticles loaded={useLoaderData<typeof loader>()} />;
}
