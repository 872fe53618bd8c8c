import { RemixBrowser } from "@remix-run/react";
import { startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { keyHistoryEntry } from "~/document/scroll-restoration";

// Before the router reads the entry's key (see app/document/scroll-restoration.ts).
keyHistoryEntry();

// No <StrictMode>: it only adds development checks, and every byte counts against the 90 KB budget.
startTransition(() => {
  hydrateRoot(document, <RemixBrowser />);
});
