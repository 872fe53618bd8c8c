import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSiteDirectory } from "~/site/site-directory";
import { parseHostPattern } from "~/site/host";
import { parseSitesFile } from "~/site/sites.server";

const parse = (text: string, env: Record<string, string> = {}) => parseSitesFile(text, env, 4000, "sites.yaml");
const problemsOf = (text: string, env: Record<string, string> = {}) => {
  const result = parse(text, env);
  return result.ok ? [] : result.problems;
};

describe("the site directory", () => {
  const directory = createSiteDirectory([
    { label: "zen", hosts: ["zen.example.org", "www.zen.example.org"], site: "zen" },
    { label: "any", hosts: ["*.example.org"], site: "any" },
    { label: "deep", hosts: ["*.forest.example.org"], site: "deep" },
  ]);

  it("finds exact names before patterns, and the most specific pattern first", () => {
    expect(directory.find("zen.example.org")).toBe("zen");
    expect(directory.find("www.zen.example.org")).toBe("zen");
    expect(directory.find("tibet.example.org")).toBe("any");
    expect(directory.find("a.b.example.org")).toBe("any");
    expect(directory.find("x.forest.example.org")).toBe("deep");
    expect(directory.find("forest.example.org")).toBe("any");
  });

  it("finds nothing for a host no site has: a pattern does not cover its own domain", () => {
    expect(directory.find("example.org")).toBeUndefined();
    expect(directory.find("zen.example.com")).toBeUndefined();
    expect(directory.find("org")).toBeUndefined();
  });

  it("names both sites when two claim one host or one pattern", () => {
    const clash = createSiteDirectory([
      { label: "a", hosts: ["zen.example.org", "*.example.org"], site: 1 },
      { label: "b", hosts: ["zen.example.org", "*.example.org"], site: 2 },
    ]);
    expect(clash.problems).toEqual([
      "site b: hosts has zen.example.org, which site a has too",
      "site b: hosts has *.example.org, which site a has too",
    ]);
    expect(createSiteDirectory([{ label: "a", hosts: ["x.org", "x.org"], site: 1 }]).problems).toEqual([]);
  });
});

describe("host patterns", () => {
  it("reads names and *.domain patterns in lower case, and refuses ports, paths and wildcards elsewhere", () => {
    expect(parseHostPattern(" Zen.Example.ORG. ")).toBe("zen.example.org");
    expect(parseHostPattern("*.example.org")).toBe("*.example.org");
    expect(parseHostPattern("127.0.0.1")).toBe("127.0.0.1");
    // "zen.0" is no address a Host header can name; "*.org" would take a whole top-level domain.
    for (const bad of [
      "zen.example.org:8080",
      "https://zen.example.org",
      "zen.*.org",
      "*",
      "*.org",
      "zen.0",
      "a b",
      "",
    ]) {
      expect(parseHostPattern(bad), bad).toBeUndefined();
    }
  });
});

describe("the sites file", () => {
  it("lays each site over the environment", () => {
    const result = parse(
      `sites:
  - hosts: [zen.example.org, www.zen.example.org]
    SITE_PRODUCT: Zen
    DONATION_URL: https://donate.example.org/zen
    LEAD_FORM_CATEGORY: zen-retreats
  - hosts: forest.example.org
    SITE_PRODUCT: Theravada
    SITE_NAME: Forest Sangha
    AD_SCRIPT_URL: ""
    LEAD_FORM_CATEGORY: 108
`,
      { AD_SCRIPT_URL: "https://ads.example.org/ad.js", LEAD_FORM_URL: "https://forms.example.org/embed" },
    );
    if (!result.ok) throw new Error(result.problems.join("\n"));
    const [zen, forest] = result.sites;
    expect(zen).toMatchObject({
      label: "zen.example.org",
      hosts: ["zen.example.org", "www.zen.example.org"],
      siteName: "Zen Buddhism",
      donationUrl: "https://donate.example.org/zen",
      adScriptUrl: "https://ads.example.org/ad.js",
      leadForm: { url: "https://forms.example.org/embed", category: "zen-retreats" },
    });
    // An empty value turns the environment's setting off; a number is read as text.
    expect(forest).toMatchObject({
      hosts: ["forest.example.org"],
      siteName: "Forest Sangha",
      adScriptUrl: undefined,
      leadForm: { category: "108" },
    });
    expect(result.directory.find("www.zen.example.org")).toBe(zen);
    expect(zen!.key).not.toBe(forest!.key);
  });

  it("gives a site its own embedded articles when it names a folder, even when the environment names a backend", () => {
    const result = parse("sites:\n  - hosts: [a.org]\n    CONTENT_DIR: content/blog\n  - hosts: [b.org]\n", {
      BLOG_API_URL: "https://api.example.org",
      BLOG_API_TOKEN: "env-token",
    });
    if (!result.ok) throw new Error(result.problems.join("\n"));
    expect(result.sites[0]!.blogApi).toBeUndefined();
    expect(result.sites[1]!.blogApi).toMatchObject({ url: "https://api.example.org", token: "env-token" });
  });

  it("never sends the environment's credential to a site's own backend", () => {
    const problems = problemsOf("sites:\n  - hosts: [a.org]\n    BLOG_API_URL: https://other.example.org\n", {
      BLOG_API_URL: "https://api.example.org",
      BLOG_API_TOKEN: "env-token",
    });
    expect(problems).toEqual(["site a.org: BLOG_API_TOKEN is required when BLOG_API_URL is set"]);
    const same = parse("sites:\n  - hosts: [a.org]\n    BLOG_API_URL: https://api.example.org\n", {
      BLOG_API_URL: "https://api.example.org",
      BLOG_API_TOKEN: "env-token",
    });
    expect(same.ok && same.sites[0]!.blogApi?.token).toBe("env-token");
  });

  it("says what is wrong, one line per problem, naming the site and the setting", () => {
    const problems = problemsOf(`sites:
  - hosts: [zen.example.org]
    DONATION_URL: javascript:alert(1)
    PORT: 3000
    FOO: bar
    PARTNER_LINKS: [a, b]
  - hosts: [bad host, "*.example.org"]
  - SITE_PRODUCT: Nobody
  - hosts: [zen.example.org]
    SITE_URL: https://zen.example.org
  - hosts: [other.example.org]
    SITE_URL: https://zen.example.org/
  - hosts: [files.example.org]
    CONTENT_DIR: no/such/folder
  - hosts: [both.example.org]
    CONTENT_DIR: content/blog
    BLOG_API_URL: https://api.example.org
    BLOG_API_TOKEN: t
  - just text
`);
    expect(problems).toEqual([
      "site zen.example.org: PORT applies to the whole process: set it in the environment",
      "site zen.example.org: FOO is not a setting a site can have",
      "site zen.example.org: PARTNER_LINKS must be text",
      "site zen.example.org: DONATION_URL must be an absolute http:// or https:// URL",
      'site bad host: hosts has "bad host": each must be a host name such as zen.example.org or a pattern such as *.example.org, without port',
      "site number 3: hosts must list at least one host name, such as [zen.example.org]",
      `site files.example.org: CONTENT_DIR has no folder at ${path.resolve("no/such/folder")}`,
      "site both.example.org: set BLOG_API_URL or CONTENT_DIR, not both: a site has one source of articles",
      "site number 8: must be a mapping with hosts and settings",
      "site zen.example.org: hosts has zen.example.org, which an earlier site has too",
      "site other.example.org: SITE_URL https://zen.example.org is site zen.example.org's too",
    ]);
  });

  it("refuses a file that is not YAML or lists no sites", () => {
    expect(problemsOf("sites: [\n")).toEqual([expect.stringMatching(/^sites\.yaml is not valid YAML: /)]);
    expect(problemsOf("a: 1\na: 2\n")).toEqual([expect.stringMatching(/^sites\.yaml is not valid YAML: .*unique/i)]);
    for (const text of ["", "sites: []\n", "sites: zen\n", "- hosts: [a.org]\n"]) {
      expect(problemsOf(text), text).toEqual(['sites.yaml must have a list "sites:" with at least one site']);
    }
  });

  it("refuses two sites with one host, or one canonical address", () => {
    expect(problemsOf("sites:\n  - hosts: [a.org]\n  - hosts: [A.org.]\n")).toEqual([
      "site a.org: hosts has a.org, which an earlier site has too",
    ]);
    expect(
      problemsOf(
        "sites:\n  - hosts: [a.org]\n    SITE_URL: https://a.org\n  - hosts: [b.org]\n    SITE_URL: https://a.org/blog\n",
      ),
    ).toEqual(["site b.org: SITE_URL https://a.org is site a.org's too"]);
  });
});
