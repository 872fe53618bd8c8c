import { useLoaderData } from "@remix-run/react";

export function loader() {
  return "Hello from the minimal Remix page.";
}

export default function Index() {
  const message = useLoaderData<typeof loader>();
  return <p>{message}</p>;
}
