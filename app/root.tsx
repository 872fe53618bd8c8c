import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  useLocation,
  useRouteError,
  useRouteLoaderData,
  isRouteErrorResponse,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import {
  fediverseHandleOf,
  getSettings,
  languageOf,
  publicSettings,
  siteOf,
  siteOrigin,
  type PublicSettings,
} from "~/site/config.server";
import { followUsMarkup } from "~/components/follow-us-markup.server";
import { DonationDialog } from "~/components/DonationDialog";
import { ErrorPage } from "~/components/ErrorPage";
import { NotFound } from "~/components/NotFound";
import { PendingRoute } from "~/components/PendingRoute";
import { ScriptsAfterPaint } from "~/components/ScriptsAfterPaint";
import { ScrollRestoration } from "~/components/ScrollRestoration";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { Toaster } from "~/components/Toaster";
import { noindexMeta } from "~/crawlers/seo";
import { translatorOf, useTranslation, type RootLanguageData } from "~/i18n/use-translation";
import { useInPageLinks } from "~/hooks/use-in-page-links";
import { useWebVitals } from "~/beacon/use-web-vitals";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// Used as is only by error pages rendered at the root (each route's meta replaces it otherwise).
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  const siteName = data?.settings.siteName ?? fallbackSettings.siteName;
  if (!error) return [{ title: siteName }];
  const { t } = translatorOf(data?.language);
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return noindexMeta(`${t(missing ? "meta.pageNotFound" : "error.title")} · ${siteName}`);
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const site = siteOf(context);
  const { lang, dir, messages, translator } = languageOf(site);
  const data = {
    settings: publicSettings(site),
    // The footer's Follow Us block, made here as HTML: it adds no script to any page (components/follow-us-markup).
    followUs: followUsMarkup({ handle: fediverseHandleOf(site), links: site.followLinks }, translator),
    origin: siteOrigin(request, site),
    language: { lang, dir, messages },
    // Whether pages send readers' beacons (app/beacon): a process setting, the same for every page.
    analytics: getSettings().analytics,
  };
  // useTranslation reads its part of it: declared with the hook, so that the hook need not import this file.
  return data satisfies RootLanguageData;
}

// A site's settings change only when the operator reloads the sites file: no need to reload them on
// every navigation (an open tab shows a change from its next full load).
export const shouldRevalidate = () => false;

const fallbackSettings: PublicSettings = {
  product: "Zen",
  siteName: "Zen Buddhism",
  donationUrl: undefined,
  encyclopediaUrl: "https://en.wikipedia.org/wiki/Zen",
  // No mark when the root's data is missing: the five marks stay out of the bundle.
  mark: { name: "", path: "", strokeWidth: 0 },
  partnerLinks: [],
  rssFeedEmbedUrl: undefined,
  leadFormUrl: undefined,
  leadFormScriptUrl: undefined,
  adScriptUrl: undefined,
};

export function useSiteSettings(): PublicSettings {
  return useRouteLoaderData<typeof loader>("root")?.settings ?? fallbackSettings;
}

export function Layout({ children }: { children: ReactNode }) {
  const settings = useSiteSettings();
  const { lang, t } = useTranslation();
  const root = useRouteLoaderData<typeof loader>("root");
  const dir = root?.language.dir ?? "ltr";
  const { pathname } = useLocation();
  useInPageLinks();
  useWebVitals(root?.analytics);
  useEffect(() => {
    // CSS keeps the no-JavaScript forms (solid header, :target donation panel) until this is set.
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    // data-counted: the stylesheet counts a no-script reader's donation panel only where readers are counted.
    <html lang={lang} dir={dir} data-counted={root?.analytics ? "" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Before the stylesheet arrives, so even the first paint has the reader's scheme (see tailwind.css). */}
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#151311" media="(prefers-color-scheme: dark)" />
        <meta name="theme-color" content="#faf7f2" />
        <Meta />
        <Links />
        <link rel="alternate" type="application/rss+xml" title={t("feed.linkTitle")} href="/blog/rss.xml" />
        <link
          rel="search"
          type="application/opensearchdescription+xml"
          title={t("search.openSearch", { site: settings.siteName })}
          href="/opensearch.xml"
        />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <a
          href="#main"
          className="sr-only z-[70] print:hidden rounded-md bg-white px-4 py-2 font-semibold text-ink shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          {t("skipLink")}
        </a>
        <SiteHeader product={settings.product} siteName={settings.siteName} mark={settings.mark} />
        <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
          <PendingRoute>{children}</PendingRoute>
        </main>
        <SiteFooter
          siteName={settings.siteName}
          product={settings.product}
          partners={settings.partnerLinks}
          followUs={root?.followUs}
          mark={settings.mark}
        />
        <DonationDialog siteName={settings.siteName} donationUrl={settings.donationUrl} autoOpen={pathname === "/"} />
        <Toaster />
        <ScrollRestoration />
        <ScriptsAfterPaint />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />;
}
