import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { languageOf, siteOf } from "~/site/config.server";
import { servicesOf } from "~/services/context.server";
import { loaderHeaders } from "~/document/route-headers";
import { noindexMeta } from "~/crawlers/seo";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404 Not Found: ${JSON.stringify(pathname)}`);
  const meta = noindexMeta(languageOf(siteOf(context)).translator.t("meta.pageNotFound"));
  return data({ meta }, { status: 404, headers: servicesOf(context).httpCache.headers("missing") });
}

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function NotFoundRoute() {
  return <NotFound />;
}
