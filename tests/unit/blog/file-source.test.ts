import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createFileSource } from "~/blog/file-source.server";

const article = (title: string, date: string) =>
  `---\nmetaTitle: "${title}"\nmetaDescription: "About ${title}"\ndate: ${date}\n---\nBody of ${title}.\n`;

// The folders a test made, removed after it (a run of this file made 86 of them).
const made: string[] = [];

function contentDir(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "content-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the embedded articles", () => {
  it("are listed newest first with the slug from the file name", async () => {
    const source = createFileSource(
      contentDir({ "older.md": article("Older", "2024-01-05"), "newer.md": article("Newer", "2024-03-01") }),
    );
    const page = await source.listPage("any", 1);
    expect(page.total).toBe(2);
    expect(page.blogs.map((blog) => blog.slug)).toEqual(["newer", "older"]);
    expect((await source.article("older"))?.date).toBe("2024-01-05");
  });

  it("list their keywords, short-tail then long-tail, for choosing what to read next", async () => {
    const withKeywords = `---\nmetaTitle: "Kinhin"\ndate: 2024-05-09\nshortTailKeywords: "kinhin, , walking meditation"\nlongTailKeywords: "kinhin instructions"\n---\nBody.\n`;
    const source = createFileSource(
      contentDir({ "kinhin.md": withKeywords, "plain.md": article("Plain", "2024-01-05") }),
    );
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
      expect(
        warnings.some((line) => line.startsWith(`Skipping ${name}`)),
        name,
      ).toBe(true);
    }
  });

  it("an unknown slug is no article, and a missing folder an empty blog", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await createFileSource(contentDir({})).article("nothing")).toBeNull();
    expect(await createFileSource("/no/such/folder").listPage("any", 1)).toEqual({ blogs: [], total: 0 });
  });
});

/** Front matter that would write `marker` if any engine ran it (gray-matter's `---js` did, with eval). */
const codeBlocks = (marker: string) => {
  const write = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
  return [
    `{ metaTitle: (${write}, "Ran"), metaDescription: "x", date: "2024-01-05" }`,
    `module.exports = (${write}, { metaTitle: "Ran" })`,
    `${write}; ({ metaTitle: "Ran" })`,
  ];
};

describe("front matter is YAML data, never code", () => {
  it("a file whose front matter names another language is skipped with a warning, nothing runs, the others are served", () => {
    const language = fc.constantFrom(
      "js",
      "javascript",
      "JS",
      "JavaScript",
      "coffee",
      "coffeescript",
      "ts",
      "json",
      "toml",
      "yaml",
      "eval",
    );
    const gap = fc.constantFrom("", " ", "\t", "  ", " \t");
    const ending = fc.constantFrom("\n", "\r\n");
    return fc.assert(
      fc.asyncProperty(language, gap, ending, fc.nat(2), fc.boolean(), async (lang, space, eol, which, bom) => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        const dir = contentDir({ "good.md": article("Good", "2024-01-05") });
        const marker = path.join(dir, "ran.txt");
        const front = `${bom ? "\uFEFF" : ""}---${space}${lang}${eol}${codeBlocks(marker)[which]}${eol}---${eol}Body${eol}`;
        writeFileSync(path.join(dir, "evil.md"), front);
        const source = createFileSource(dir);
        expect((await source.listPage("any", 1)).blogs.map((blog) => blog.slug)).toEqual(["good"]);
        expect(await source.article("evil")).toBeNull();
        expect(existsSync(marker)).toBe(false);
        const warnings = warn.mock.calls.map((call) => String(call[0]));
        expect(warnings.filter((line) => line.startsWith("Skipping evil.md: front matter must be YAML"))).toHaveLength(
          1,
        );
        warn.mockRestore();
      }),
      { numRuns: 60 },
    );
  });

  it("YAML tags for code (!!js/function, !!js/eval, !!python/object) refuse the file; nothing runs", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = contentDir({ "good.md": article("Good", "2024-01-05") });
    const marker = path.join(dir, "ran.txt");
    const write = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
    const tagged = {
      "function.md": `---\nmetaTitle: !!js/function "function () { ${write} }"\n---\nBody\n`,
      "eval.md": `---\nmetaTitle: !!js/eval "${write.replaceAll('"', "'")}"\n---\nBody\n`,
      "python.md": `---\nmetaTitle: !!python/object/apply:os.system ["touch ${marker}"]\n---\nBody\n`,
      "local.md": `---\nmetaTitle: !code "${write.replaceAll('"', "'")}"\n---\nBody\n`,
    };
    for (const [name, text] of Object.entries(tagged)) writeFileSync(path.join(dir, name), text);
    const source = createFileSource(dir);
    expect((await source.listPage("any", 1)).blogs.map((blog) => blog.slug)).toEqual(["good"]);
    expect(existsSync(marker)).toBe(false);
    const warnings = warn.mock.calls.map((call) => String(call[0]));
    for (const name of Object.keys(tagged))
      expect(
        warnings.some((line) => line.startsWith(`Skipping ${name}: front matter is not valid YAML`)),
        name,
      ).toBe(true);
  });

  it("aliases are bounded: a billion-laughs block is refused, whatever its depth", () =>
    fc.assert(
      fc.asyncProperty(fc.integer({ min: 4, max: 12 }), fc.integer({ min: 5, max: 12 }), async (depth, width) => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        const lines = [`l0: &l0 [${Array(width).fill('"lol"').join(", ")}]`];
        for (let level = 1; level < depth; level++)
          lines.push(
            `l${level}: &l${level} [${Array(width)
              .fill(`*l${level - 1}`)
              .join(", ")}]`,
          );
        const dir = contentDir({
          "good.md": article("Good", "2024-01-05"),
          "laughs.md": `---\nmetaTitle: "Laughs"\n${lines.join("\n")}\n---\nBody\n`,
        });
        const source = createFileSource(dir);
        expect((await source.listPage("any", 1)).blogs.map((blog) => blog.slug)).toEqual(["good"]);
        expect(warn.mock.calls.some((call) => String(call[0]).startsWith("Skipping laughs.md:"))).toBe(true);
        warn.mockRestore();
      }),
      { numRuns: 20 },
    ));

  it("a byte order mark and Windows line endings are still YAML; an unclosed block is skipped", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const source = createFileSource(
      contentDir({
        "windows.md": `\uFEFF---\r\nmetaTitle: "Windows"\r\nmetaDescription: "CRLF"\r\ndate: 2024-02-02\r\n---\r\nBody.\r\n`,
        "unclosed.md": `---\nmetaTitle: "Unclosed"\nBody\n`,
      }),
    );
    expect((await source.listPage("any", 1)).blogs.map((blog) => blog.slug)).toEqual(["windows"]);
    expect((await source.article("windows"))?.date).toBe("2024-02-02");
    expect(
      warn.mock.calls.some((call) => String(call[0]).startsWith("Skipping unclosed.md: front matter is not closed")),
    ).toBe(true);
  });
});
