import { readdirSync } from "node:fs";

/**
 * The files below `dir`, as paths relative to it with "/" between folders, for the build steps.
 * @param {string} dir
 * @returns {string[]}
 */
export function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath ?? entry.path}/${entry.name}`.slice(dir.length + 1));
}
