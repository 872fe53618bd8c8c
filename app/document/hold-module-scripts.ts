import { cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

/** What a held module preload and the held module script carry instead (app/document/scripts-after-paint.server.ts). */
export const HELD_MEDIA = "not all";
export const HELD_MODULE_TYPE = "text/x-module-after-paint";

type Props = {
  rel?: unknown;
  type?: unknown;
  src?: unknown;
  children?: ReactNode;
  dangerouslySetInnerHTML?: { __html?: unknown };
};

/** Script types a browser runs; anything else is a data block. */
const RUNNABLE = new Set([undefined, "", "module", "text/javascript", "application/javascript"]);

/**
 * Remix's <Scripts> output with its module preloads given a media query no screen matches and its module
 * script turned into a data block (no `async`: a data block may not have it), every element kept, so that
 * React hydrates what the server rendered. `held` says whether there was a module script to hold, and
 * `inline` lists the text of each inline script that still runs, for the CSP.
 */
export function holdModuleScripts(node: ReactNode): { node: ReactNode; held: boolean; inline: string[] } {
  let held = false;
  const inline: string[] = [];
  const hold = (current: ReactNode): ReactNode => {
    if (Array.isArray(current)) return current.map(hold);
    if (!isValidElement(current)) return current;
    const element = current as ReactElement<Props>;
    if (element.type === "link" && element.props.rel === "modulepreload")
      return cloneElement(element, { media: HELD_MEDIA } as Props);
    if (element.type === "script" && element.props.type === "module") {
      held = true;
      return cloneElement(element, { type: HELD_MODULE_TYPE, async: undefined } as Props);
    }
    const text = element.props.dangerouslySetInnerHTML?.__html;
    if (
      element.type === "script" &&
      element.props.src === undefined &&
      RUNNABLE.has(element.props.type as string | undefined) &&
      typeof text === "string"
    )
      inline.push(text);
    return element.props.children === undefined
      ? element
      : cloneElement(element, { children: hold(element.props.children) });
  };
  const result = hold(node);
  return { node: result, held, inline };
}
