import { Scripts } from "@remix-run/react";
import { holdModuleScripts } from "~/document/hold-module-scripts";
import { useInlineScripts } from "~/document/page-scripts";
import { afterPaintLoader } from "~/document/scripts-after-paint.server";

/**
 * Remix's <Scripts>, fetched once the page has painted (docs/decisions/024): the change is made where the
 * scripts are rendered, to React elements, not to the finished document. <Scripts> is called as a function
 * so that its output can be adjusted; its hooks run as this component's, in the same order every render.
 * The loader's text exists on the server only; in the browser React keeps the script the page came with.
 */
export function ScriptsAfterPaint() {
  const { node, held, inline } = holdModuleScripts(Scripts({}));
  useInlineScripts(...inline, held ? afterPaintLoader : undefined);
  return (
    <>
      {node}
      {held ? <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: afterPaintLoader ?? "" }} /> : null}
    </>
  );
}
