import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKS } from "~/site/traditions";
import { startSite } from "../support/site-process.mjs";

// A Theravāda site in English with its community's own About text, beside a Zen site: the home page, the
// share image and the logo are the tradition's, and the About text is rendered as an article body is.

const folder = mkdtempSync(path.join(tmpdir(), "about-site-"));
const aboutFile = path.join(folder, "about.md");
let theravada: Awaited<ReturnType<typeof startSite>>;
let zen: Awaited<ReturnType<typeof startSite>>;

beforeAll(async () => {
  writeFileSync(
    aboutFile,
    "# Wat Santi\n\nA **forest monastery**. <script>alert(1)</script> <img src=x onerror=alert(2)> [Times](https://example.org/times) [bad](javascript:alert(3))\n",
  );
  [theravada, zen] = await Promise.all([
    startSite({
      SITE_TRADITION: "theravada",
      SITE_PRODUCT: "Theravāda",
      SITE_NAME: "Santi Forest Monastery",
      ABOUT_FILE: aboutFile,
    }),
    startSite({}),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([theravada?.stop(), zen?.stop()]);
  rmSync(folder, { recursive: true, force: true });
});

describe("a Theravāda site", () => {
  it("speaks of its own tradition, draws its mark and links its encyclopedia article", async () => {
    const home = await (await fetch(`${theravada.url}/`)).text();
    for (const words of [
      "Generosity · Virtue · Meditation",
      "Sīla",
      "Samādhi",
      "Paññā",
      "https://en.wikipedia.org/wiki/Theravada",
      "a Dhamma wheel with eight spokes",
    ])
      expect(home).toContain(words);
    for (const words of ["Zazen", "Kōan", "Mahāyāna", "beginner’s mind", "ensō"]) expect(home).not.toContain(words);
    expect(home).toContain(`<path d="${MARKS.theravada.path}" stroke-width="${MARKS.theravada.strokeWidth}"`);
    expect(home).not.toContain(MARKS.zen.path);
  });

  it("shows the community's own About text, rendered as an article body: raw HTML inert, links safe, one h1", async () => {
    const home = await (await fetch(`${theravada.url}/`)).text();
    const about = home.slice(home.indexOf('id="about"'), home.indexOf("</section>", home.indexOf('id="about"')));
    expect(about).toContain("<h3>Wat Santi</h3>");
    expect(about).toContain("<strong>forest monastery</strong>");
    expect(about).toContain('<a href="https://example.org/times" target="_blank" rel="noopener noreferrer">Times</a>');
    expect(about).not.toMatch(/<script|<img|javascript:/);
    expect(home.match(/<h1[\s>]/g)).toHaveLength(1);
    // In place of the tradition's paragraphs, not beside them.
    expect(about).not.toContain("Teaching of the Elders");
  });

  it("has its own share image and logo", async () => {
    for (const file of ["/share.png", "/logo.png"]) {
      const [own, zens] = await Promise.all(
        [theravada, zen].map(async (site) => Buffer.from(await (await fetch(`${site.url}${file}`)).arrayBuffer())),
      );
      expect(own!.subarray(1, 4).toString(), file).toBe("PNG");
      expect(own!.equals(zens!), file).toBe(false);
    }
  });
});
