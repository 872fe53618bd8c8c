import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFileSource } from "~/blog/file-source.server";

const article = (title: string, date: string) => `---\nmetaTitle: "${title}"\nmetaDescription: "About ${title}"\ndate: ${date}\n---\nBody of ${title}.\n`;

function contentDir(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "content-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

afterEach(() => vi.restoreAllMocks());

describe("the embedded articles", () => {
  it("are listed newest first with the slug from the file name", async () => {
    const source = createFileSource(contentDir({ "older.md": article("Older", "2024-01-05"), "newer.md": article("Newer", "2024-03-01") }));
    const page = await source.listPage("any", 1);
    expect(page.total).toBe(2);
    expect(page.blogs.map((blog) => blog.slug)).toEqual(["newer", "older"]);
    expect((await source.article("older"))?.date).toBe("2024-01-05");
  });

  it("list their keywords, short-tail then long-tail, for choosing what to read next", async () => {
    const withKeywords = `---\nmetaTitle: "Kinhin"\ndate: 2024-05-09\nshortTailKeywords: "kinhin, , walking meditation"\nlongTailKeywords: "kinhin instructions"\n---\nBody.\n`;
    const source = createFileSource(contentDir({ "kinhin.md": withKeywords, "plain.md": article("Plain", "2024-01-05") }));
    const { blogs } = await source.listPage("any", 1);
    expect(blogs.map((blog) => blog.keywords)).toEqual([["kinhin", "walking meditation", "kinhin instructions"], []]);
  });

  it("skip a broken file with a warning and keep the others", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = contentDir({
      "good.md": article("Good", "2024-01-05"),
      "bad-yaml.md": "---\nmetaTitle: [unclosed\n---\nBody\n",
      "no-title.md": "---\ndate: 2024-01-01\n---\nBody\n",
      "Bad Name.md": article("Bad name", "2024-01-01"),
    });
    mkdirSync(path.join(dir, "folder.md"));
    const source = createFileSource(dir);
    const page = await source.listPage("any", 1);
    expect(page.blogs.map((blog) => blog.slug)).toEqual(["good"]);
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    for (const name of ["bad-yaml.md", "no-title.md", "Bad Name.md", "folder.md"]) {
      expect(warnings.some((line) => line.startsWith(`Skipping ${name}`)), name).toBe(true);
    }
  });

  it("an unknown slug is no article, and a missing folder an empty blog", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await createFileSource(contentDir({})).article("nothing")).toBeNull();
    expect(await createFileSource("/no/such/folder").listPage("any", 1)).toEqual({ blogs: [], total: 0 });
  });
});
