import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { KeywordArticles } from "~/components/search/KeywordArticles";
import { siteOf } from "~/site/config.server";
import { loaderHeaders } from "~/document/route-headers";
import { loadKeywordPage } from "~/search/keyword-page.server";

export const loader = ({ request, context, params }: LoaderFunctionArgs) => loadKeywordPage(request, siteOf(context), params.keyword ?? "");

export const headers = loaderHeaders;

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => loaded?.meta ?? [];

export default function KeywordPage() {
  return <KeywordArticles loaded={useLoaderData<typeof loader>()} />;
}
