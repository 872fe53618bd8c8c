import { useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Spinner } from "./Spinner";

/**
 * While the browser loads another page's data, show what is coming instead of the old page: the
 * spec's "Loading blogs..." and "Loading article..." states. Page changes within the blog list keep
 * the list on screen and show their own notice.
 */
export function PendingRoute({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const target = navigation.state === "loading" ? navigation.location.pathname : undefined;
  if (!target || target === pathname) return <>{children}</>;
  if (target === "/blog") return <Spinner label={t("blog.loading")} className="min-h-[60vh]" />;
  if (target.startsWith("/blog/")) return <Spinner label={t("article.loading")} className="min-h-[60vh]" />;
  return <>{children}</>;
}
