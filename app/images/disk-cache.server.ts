import { mkdirSync, readdirSync, statSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { IMAGE_FORMATS } from "./image-variants";

const fileName = new RegExp(`^[0-9a-f]{64}\\.(${IMAGE_FORMATS.join("|")})$`);

/**
 * Made copies on disk, at most `maxBytes` of them: the least recently used go first. The index lives
 * in memory and is rebuilt from the folder at start (oldest first). Several processes may share the
 * folder: files are written under a temporary name and renamed, so none reads half a file, and one
 * that another process removed is simply made again.
 */
export function createDiskCache({ dir, maxBytes }: { dir: string; maxBytes: number }) {
  mkdirSync(dir, { recursive: true });
  const index = new LRUCache<string, number>({
    maxSize: maxBytes,
    sizeCalculation: (size) => Math.max(1, size),
    dispose: (_size, name, reason) => {
      if (reason === "evict" || reason === "delete") void rm(path.join(dir, name), { force: true });
    },
  });
  const existing = readdirSync(dir)
    .filter((name) => fileName.test(name))
    .map((name) => ({ name, stat: statSync(path.join(dir, name)) }))
    .sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs);
  for (const { name, stat } of existing) index.set(name, stat.size);

  return {
    async get(name: string): Promise<Buffer | undefined> {
      // get(), not has(): a read makes the file the most recently used.
      if (index.get(name) === undefined) return undefined;
      try {
        return await readFile(path.join(dir, name));
      } catch {
        index.delete(name);
        return undefined;
      }
    },
    async put(name: string, bytes: Buffer): Promise<void> {
      const file = path.join(dir, name);
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
      index.set(name, bytes.length);
    },
    /** Bytes the index counts, for tests and logs. */
    size: () => index.calculatedSize,
  };
}
