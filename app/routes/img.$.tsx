import type { LoaderFunctionArgs } from "@remix-run/node";
import { servicesOf } from "~/services/context.server";

/** Copies of the pages' images at the size they are shown (docs/decisions/015). */
export function loader({ params, context }: LoaderFunctionArgs) {
  return servicesOf(context).images.respond(params["*"] ?? "");
}
