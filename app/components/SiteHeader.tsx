import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/hooks/use-hydrated";
import type { Translator } from "~/i18n/messages";
import { useTranslation } from "~/i18n/use-translation";
import { sectionHref } from "~/site/site-sections";
import { isScrolledPast } from "~/document/scroll";
import { SiteMark } from "./SiteMark";
import type { Mark } from "~/site/traditions";
import { parseSearchParams } from "~/search/search-address";
import { SearchForm, SearchIcon } from "./search/SearchForm";

type NavItem = { label: string; href: string; internal?: boolean };

function navItems(product: string, onHomePage: boolean, { t }: Translator): NavItem[] {
  return [
    { label: t("nav.home"), href: sectionHref("home", onHomePage) },
    { label: t("nav.about", { product }), href: sectionHref("about", onHomePage) },
    { label: t("nav.resources"), href: sectionHref("resources", onHomePage) },
    { label: t("nav.blog"), href: "/blog", internal: true },
    { label: t("nav.contact"), href: sectionHref("contact", onHomePage) },
    { label: t("nav.donate"), href: "#donate" },
  ];
}

function NavLink({ item, onNavigate, className }: { item: NavItem; onNavigate?: () => void; className: string }) {
  if (item.href === "#donate") {
    return (
      <a href="#donate" onClick={onNavigate} className={className} data-donate-link="">
        {item.label}
      </a>
    );
  }
  // Fragment links on the home page stay plain anchors: the browser scrolls, no router round trip.
  if (item.href.startsWith("#")) {
    return (
      <a href={item.href} onClick={onNavigate} className={className}>
        {item.label}
      </a>
    );
  }
  return (
    <Link to={item.href} prefetch={item.internal ? "intent" : "none"} onClick={onNavigate} className={className}>
      {item.label}
    </Link>
  );
}

const desktopLink =
  "rounded-md px-3 py-2 text-sm font-medium text-stone-700 transition-colors hover:bg-stone-900/5 hover:text-ink";
const donateLink =
  "rounded-full bg-moss-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-moss-800";
const menuToggle = "inline-flex h-11 w-11 items-center justify-center rounded-md text-stone-800 hover:bg-stone-900/5";
const mobileLink = "block rounded-md px-3 py-3 text-base font-medium text-stone-800 hover:bg-stone-100";

export function SiteHeader({ product, siteName, mark }: { product: string; siteName: string; mark: Mark }) {
  const { pathname, search } = useLocation();
  const onHomePage = pathname === "/";
  // On the results page, the header's form shows the words searched for.
  const query = pathname === "/search" ? parseSearchParams(new URLSearchParams(search)).query : undefined;
  const translator = useTranslation();
  const { t } = translator;
  const items = navItems(product, onHomePage, translator);
  const hydrated = useHydrated();
  const [scrolled, setScrolled] = useState<boolean | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    const update = () => setScrolled(isScrolledPast(window.scrollY));
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  useEffect(() => setMenuOpen(false), [pathname]);

  // Choosing an item closes the menu; focus goes back to the toggle instead of vanishing with the menu
  // (and the donation dialog, when Donate was chosen, returns it there when it closes).
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeMenu = () => {
    toggleRef.current?.focus();
    setMenuOpen(false);
  };

  return (
    <header
      className="site-header fixed inset-x-0 top-0 z-50 transition-[background-color,box-shadow] duration-300"
      data-scrolled={scrolled === null ? undefined : String(scrolled)}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 font-serif text-lg font-semibold text-ink"
          aria-label={t("header.homeLink", { site: siteName })}
        >
          <SiteMark mark={mark} className="h-8 w-8 text-moss-700" />
          <span>{siteName}</span>
        </Link>

        <nav aria-label={t("nav.label")} className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <NavLink
              key={item.href}
              item={item}
              className={item.href === "#donate" ? `ml-2 ${donateLink}` : desktopLink}
            />
          ))}
        </nav>
        {/* The form where there is room for it; where there is not, a link to the results page's form (and the form in the menu). */}
        <SearchForm query={query} className="hidden lg:flex" />
        <div className="flex items-center gap-1 lg:hidden">
          <Link to="/search" aria-label={t("search.title")} className={menuToggle}>
            <SearchIcon />
          </Link>

          <div className="md:hidden">
            {hydrated ? (
              <button
                type="button"
                ref={toggleRef}
                className={menuToggle}
                aria-label={t(menuOpen ? "menu.close" : "menu.open")}
                aria-expanded={menuOpen}
                aria-controls="mobile-menu"
                onClick={() => setMenuOpen((open) => !open)}
              >
                <MenuIcon open={menuOpen} />
              </button>
            ) : (
              // Without JavaScript the menu is the URL's #mobile-menu target: choosing an item changes the
              // target, which closes it. "#close" names no element, so closing does not scroll.
              // The menu comes first so CSS can swap the toggles with a sibling selector (cheaper than :has).
              <>
                <MobileMenu items={items} className="menu-target" />
                <a href="#mobile-menu" aria-label={t("menu.open")} className={`menu-open ${menuToggle}`}>
                  <MenuIcon open={false} />
                </a>
                <a href="#close" aria-label={t("menu.close")} className={`menu-close ${menuToggle}`}>
                  <MenuIcon open />
                </a>
              </>
            )}
          </div>
        </div>
      </div>
      {hydrated && menuOpen ? <MobileMenu items={items} onNavigate={closeMenu} /> : null}
    </header>
  );
}

function MobileMenu({
  items,
  onNavigate,
  className = "",
}: {
  items: NavItem[];
  onNavigate?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <nav
      id="mobile-menu"
      aria-label={t("nav.label")}
      className={`absolute inset-x-0 top-16 border-t border-stone-200 bg-white px-4 pb-4 pt-2 shadow-lg md:hidden ${className}`}
    >
      <SearchForm className="mb-2 mt-2" />
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            <NavLink item={item} onNavigate={onNavigate} className={mobileLink} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-6 w-6"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}
