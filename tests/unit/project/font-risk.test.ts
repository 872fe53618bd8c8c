// The site's own text (components, styles, every language's translations) has no character that needs an emoji
// font: a mark the design depends on is drawn (app/components/SiteMark.tsx, LotusMark.tsx). The pages as
// rendered, articles included, are checked in tests/e2e/font-risk.spec.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { fontRisks } from "../../support/font-risk.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name))
      : /\.(tsx?|css|json)$/.test(entry.name)
        ? [path.join(dir, entry.name)]
        : [],
  );
}

describe("characters that need an emoji font", () => {
  test("are recognised: new and old emoji, forced emoji, flags; text-style symbols pass", () => {
    expect(fontRisks("🪷")).toHaveLength(1);
    expect(fontRisks("a 🙏 b")).toHaveLength(1);
    expect(fontRisks("☸\uFE0F")).toHaveLength(1);
    expect(fontRisks("🇹🇭")).toHaveLength(2);
    expect(fontRisks("© 2026 ↗ ☸ — “Zen” · 禅 ธรรม Thiền")).toEqual([]);
  });

  test.each([...filesUnder("app"), ...filesUnder("locales")])("none in %s", (file) => {
    expect(fontRisks(readFileSync(path.join(root, file), "utf8"))).toEqual([]);
  });
});
