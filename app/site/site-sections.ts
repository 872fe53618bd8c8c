/** The home page sections the header and footer link to, in page order, with their names' translation keys. */
export const homeSections = [
  { id: "home", label: "sections.home" },
  { id: "about", label: "sections.about" },
  { id: "resources", label: "sections.resources" },
  { id: "contact", label: "sections.contact" },
] as const;

export type SectionId = (typeof homeSections)[number]["id"];

/** On the home page a section link is a plain fragment (smooth in-page scroll); elsewhere it leads home. */
export function sectionHref(id: SectionId, onHomePage: boolean): string {
  if (id === "home") return onHomePage ? "#home" : "/";
  return onHomePage ? `#${id}` : `/#${id}`;
}
