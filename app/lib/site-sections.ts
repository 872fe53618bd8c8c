/** The home page sections the header and footer link to, in page order. */
export const homeSections = [
  { id: "home", label: "Home" },
  { id: "about", label: "About" },
  { id: "resources", label: "Resources" },
  { id: "contact", label: "Contact" },
] as const;

export type SectionId = (typeof homeSections)[number]["id"];

/** On the home page a section link is a plain fragment (smooth in-page scroll); elsewhere it leads home. */
export function sectionHref(id: SectionId, onHomePage: boolean): string {
  if (id === "home") return onHomePage ? "#home" : "/";
  return onHomePage ? `#${id}` : `/#${id}`;
}
