import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Sends clicks on in-page links ("#about") through the router. Left to the browser, each such click is
 * a history entry the router sees without a key of its own, so ScrollRestoration puts back the scroll
 * position of the previous one and the smooth scroll to the section stops after a few pixels.
 * As a router navigation it gets a key, and ScrollRestoration scrolls the section into view (smoothly,
 * by CSS, and below the fixed header, by scroll-margin). "#donate" is left to the donation dialog.
 */
export function useInPageLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href^='#']");
      const hash = link?.getAttribute("href");
      if (!hash || hash === "#donate" || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(hash);
      // The browser would move focus to a target that can take it (the skip link's <main tabindex=-1>).
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target?.hasAttribute("tabindex")) target.focus({ preventScroll: true });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
