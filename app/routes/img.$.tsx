import type { LoaderFunctionArgs } from "@remix-run/node";
import { imageService } from "~/images/image-service.server";

/** Copies of the pages' images at the size they are shown (docs/decisions/015). */
export function loader({ params }: LoaderFunctionArgs) {
  return imageService().respond(params["*"] ?? "");
}
