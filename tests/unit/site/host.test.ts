import { describe, expect, it } from "vitest";
import { domainFromHost } from "~/site/domain";
import { parseHostHeader } from "~/site/host";

describe("domain from host", () => {
  it.each([
    ["www.zen.example.org", "zen.example.org"],
    ["Zen.Example.ORG:8080", "zen.example.org"],
    ["localhost:3000", "localhost"],
    ["127.0.0.1:3000", "127.0.0.1"],
    ["www.", "www"],
    ["example.org.", "example.org"],
  ])("%s → %s", (host, domain) => {
    expect(domainFromHost(host)).toBe(domain);
  });
  it.each(["", "evil.com/path", "a b", "<script>", "x".repeat(300), "ex_ample.com", "-bad.com", "[::1]:3000", null])(
    "rejects %s",
    (host) => {
      expect(domainFromHost(host)).toBeUndefined();
    },
  );
});

describe("Host header", () => {
  it("accepts names and IPv4 addresses with an optional port", () => {
    expect(parseHostHeader("Zen.Example.org:8080")).toEqual({ name: "zen.example.org", port: 8080 });
    expect(parseHostHeader("127.0.0.1")).toEqual({ name: "127.0.0.1", port: undefined });
  });
  it.each([
    "",
    "a b",
    "<script>",
    "evil.com:99999",
    "evil.com:0",
    "x.org:80:80",
    "x.org/path",
    "[::1]",
    "ex ample.org",
    "..",
    "a..b",
    "A.0",
    "999.1.1.1",
    "x.0x10",
  ])("refuses %j", (header) => {
    expect(parseHostHeader(header)).toBeUndefined();
  });
});
