import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { cacheHeaders } from "~/lib/http-cache.server";
import { loaderHeaders } from "~/lib/route-headers";
import { noindexMeta } from "~/lib/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404 Not Found: ${JSON.stringify(pathname)}`);
  return data(null, { status: 404, headers: cacheHeaders("missing") });
}

export const headers = loaderHeaders;

export const meta: MetaFunction = () => noindexMeta("Page not found");

export default function NotFoundRoute() {
  return <NotFound />;
}
