import { createContext, useContext } from "react";

/**
 * The inline scripts a page runs, gathered while the server renders it: the CSP lists their hashes
 * (app/document/csp.server.ts), with no second pass over the document (docs/decisions/024). An inline script that
 * is not named here does not run, which the browser tests would see as a CSP violation.
 */
export const PageScripts = createContext<Set<string> | undefined>(undefined);

/** Names the inline scripts a component renders. In the browser nothing gathers them, and it does nothing. */
export function useInlineScripts(...texts: (string | undefined)[]) {
  const scripts = useContext(PageScripts);
  for (const text of texts) if (text) scripts?.add(text);
}
