import { useEffect, type RefObject } from "react";

/**
 * Appends a third-party script to a container once the page is interactive, so it never delays the
 * first paint, and removes it again when the container goes away.
 */
export function useExternalScript(src: string | undefined, container: RefObject<HTMLElement>) {
  useEffect(() => {
    const host = container.current;
    if (!src || !host) return;
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    host.appendChild(script);
    return () => script.remove();
  }, [src, container]);
}
