import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Measures each page the reader sees (measure.client.ts) when the site collects Web Vitals: the measuring
 * code is fetched after hydration, so after the first paint, as its own small script, and never when the
 * site does not collect them (ANALYTICS=off). A change of path is a new page.
 */
export function useWebVitals(enabled: boolean | undefined) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!enabled) return;
    import("./measure.client").then(
      (vitals) => vitals.measure(pathname),
      () => undefined,
    );
  }, [enabled, pathname]);
}
