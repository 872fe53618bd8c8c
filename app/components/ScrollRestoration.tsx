import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router-dom";
import { useInlineScripts } from "~/document/page-scripts";
import { SCROLL_POSITIONS_KEY, restoreSavedScrollScript } from "~/document/scroll-restoration";

/** Remix's <ScrollRestoration>, with an inline script that leaves storage alone on a first visit. */
export function ScrollRestoration() {
  useScrollRestoration({ storageKey: SCROLL_POSITIONS_KEY });
  useInlineScripts(restoreSavedScrollScript);
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: restoreSavedScrollScript }} />;
}
