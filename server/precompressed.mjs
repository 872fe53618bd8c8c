import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Serves the .br / .gz copies written by scripts/precompress.mjs when the browser accepts them.
 * The list of copies is read once at start-up, so a request costs no file-system lookups.
 * @param {string} dir the folder the URL path maps to (public/build)
 * @param {import("express").ServeStaticOptions & { maxAge: string }} options
 * @returns {import("express").RequestHandler}
 */
export function precompressed(dir, { maxAge }) {
  const available = new Set();
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else available.add(path.relative(dir, full));
    }
  };
  walk(dir);

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let relative;
    try {
      relative = path.normalize(decodeURIComponent(req.path)).replace(/^[/\\]+/, "");
    } catch {
      return next();
    }
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
