import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README is the front door; the rest is in docs/, one page per topic, indexed by docs/README.md.
const pages = [
  "README.md",
  "SECURITY.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The markdown's text without fenced code blocks and inline code, where a bracket is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of the page's links and images, `[text](target)` and `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target ?? "");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): string[] {
  return prose(readFileSync(file, "utf8"))
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchor(line.replace(/^#+ /, "").trim()));
}

describe("the documentation", () => {
  it("has a README of at most 150 lines", () => {
    const lines = readFileSync("README.md", "utf8").replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(150);
  });

  it("keeps the README's two commands, word for word", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
  });

  it.each(pages)("%s links only to files that exist, and to headings they have", (page) => {
    const targets = linkTargets(readFileSync(page, "utf8")).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
    const broken: string[] = [];
    for (const target of targets) {
      const [file = "", fragment] = target.split("#");
      const resolved = file === "" ? page : path.join(path.dirname(page), decodeURIComponent(file));
      if (!existsSync(resolved)) broken.push(`${target}: no ${resolved}`);
      else if (fragment && resolved.endsWith(".md") && !anchorsOf(resolved).includes(fragment))
        broken.push(`${target}: no heading #${fragment}`);
    }
    expect(broken).toEqual([]);
  });

  it("finds a link to a file that does not exist (the check itself)", () => {
    expect(
      linkTargets('See [a](docs/none.md), ![b](x.png "no"), `[c](code.md)` and [d](https://example.org).'),
    ).toEqual(["docs/none.md", "x.png", "https://example.org"]);
    expect(anchor("Behind nginx, with several origins")).toBe("behind-nginx-with-several-origins");
  });

  it("indexes every file and folder of docs/ in docs/README.md", () => {
    const index = linkTargets(readFileSync("docs/README.md", "utf8")).map((target) => target.replace(/\/$/, ""));
    const entries = readdirSync("docs").filter((name) => name !== "README.md");
    expect(entries.filter((name) => !index.includes(name))).toEqual([]);
  });
});
