import path from "node:path";

/** The name of a site's About file among its embedded articles: a name no article can have (slugs start with a letter or digit). */
export const ABOUT_FILE_NAME = "_about.md";

/** Where a site's own About text is (app/blog/about-text.server.ts), and whether the operator named it. */
export type AboutSource = { file: string; given: boolean };

/** The About file of a site: the one ABOUT_FILE names, else `_about.md` in its content folder, if there is one. */
export function aboutSourceOf(aboutFile: string | undefined, contentDir: string): AboutSource {
  return aboutFile
    ? { file: path.resolve(aboutFile), given: true }
    : { file: path.join(contentDir, ABOUT_FILE_NAME), given: false };
}
