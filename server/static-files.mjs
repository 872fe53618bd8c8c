import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The files below `dir`, as paths relative to it, read once: checking a request against this set costs
 * no file-system lookup.
 * @param {string} dir
 * @param {(relative: string) => boolean} [skipFolder]
 * @returns {Set<string>}
 */
export function listFiles(dir, skipFolder = () => false) {
  const files = new Set();
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      const relative = path.relative(dir, full);
      if (statSync(full).isDirectory()) {
        if (!skipFolder(relative)) walk(full);
      } else files.add(relative);
    }
  };
  walk(dir);
  return files;
}

/**
 * Serves the .br / .gz copies written by scripts/precompress.mjs when the browser accepts them.
 * The list of copies is read once at start-up, so a request costs no file-system lookups.
 * @param {string} dir the folder the URL path maps to (public/build)
 * @param {import("express").ServeStaticOptions & { maxAge: string }} options
 * @returns {import("express").RequestHandler}
 */
export function precompressed(dir, { maxAge }) {
  const available = listFiles(dir);

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const relative = relativePath(req.path);
    if (relative === undefined) return next();
    const encoding = req.acceptsEncodings("br", "gzip", "identity");
    const suffix = encoding === "br" ? ".br" : encoding === "gzip" ? ".gz" : undefined;
    if (!suffix || !available.has(relative + suffix)) return next();
    res.type(path.extname(relative));
    res.set({ "Content-Encoding": encoding, Vary: "Accept-Encoding" });
    res.sendFile(relative + suffix, { root: dir, maxAge, immutable: true, dotfiles: "deny" }, (error) => {
      if (!error) return;
      // The copy vanished (a rebuild under a running server): fall back to the plain file.
      if (!res.headersSent) {
        res.removeHeader("Content-Encoding");
        return next();
      }
      next(error);
    });
  };
}

/**
 * Serves the files of `dir` that exist at start-up (public/ minus the build, which has its own
 * handler); page requests pass straight on without a file-system lookup.
 * @param {string} dir
 * @param {import("express").RequestHandler} serve express.static for the same folder
 * @param {(relative: string) => boolean} skipFolder
 * @returns {import("express").RequestHandler}
 */
export function knownFiles(dir, serve, skipFolder) {
  const files = listFiles(dir, skipFolder);
  return (req, res, next) => {
    const relative = relativePath(req.path);
    return relative !== undefined && files.has(relative) ? serve(req, res, next) : next();
  };
}

/** The URL path as a path relative to a served folder, or undefined when it cannot be decoded. */
function relativePath(urlPath) {
  try {
    return path.normalize(decodeURIComponent(urlPath)).replace(/^[/\\]+/, "");
  } catch {
    return undefined;
  }
}
