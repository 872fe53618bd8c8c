import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

/**
 * Serves the files of `dir` that exist at start-up, less the `skip` folder (the build, which has its
 * own handler). The list is read once, so page requests pass on without a file-system lookup.
 */
export function publicFiles(dir: string, skip: string): RequestHandler {
  const files = new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`)
      .filter((file) => !file.startsWith(`/${skip}/`)),
  );
  const serve = express.static(dir, { maxAge: "1h", index: false });
  // Paths reach here decodable (guards.ts).
  return (req, res, next) => (files.has(decodeURIComponent(req.path)) ? serve(req, res, next) : next());
}
