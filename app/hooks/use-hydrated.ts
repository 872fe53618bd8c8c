import { useEffect, useState } from "react";

let hydrated = false;

/**
 * False during the server render and the first client render (so hydration matches), true after.
 * Lets a component swap its no-JavaScript form for its enhanced one.
 */
export function useHydrated() {
  const [isHydrated, setHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setHydrated(true);
  }, []);
  return isHydrated;
}
