import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(`404 Not Found: ${JSON.stringify(pathname)}`);
  return data(null, { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: "Page not found" },
  { name: "robots", content: "noindex" },
];

export default function NotFoundRoute() {
  return <NotFound />;
}
