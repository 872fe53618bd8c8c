import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BlogUnavailableError } from "~/blog/errors.server";
import { createHttpSource } from "~/blog/http-source.server";
import { FAKE_TOKEN, startFakeBackend } from "../../support/fake-backend.mjs";

let backend: Awaited<ReturnType<typeof startFakeBackend>>;
const source = (overrides: Partial<Parameters<typeof createHttpSource>[0]> = {}) =>
  createHttpSource({ baseUrl: backend.url, token: FAKE_TOKEN, timeoutMs: 1000, ...overrides });

beforeAll(async () => {
  backend = await startFakeBackend({ articles: 23 });
});
afterAll(() => backend.close());
beforeEach(() => {
  backend.reset();
  backend.state.listStatus = 200;
  backend.state.listBody = undefined;
  backend.state.bom = false;
});

describe("hosted backend source", () => {
  it("asks get_metainfo for the domain and page with the bearer credential", async () => {
    const page = await source().listPage("zen.example.org", 2);
    expect(page.total).toBe(23);
    expect(page.blogs.map((blog) => blog.slug)).toEqual(
      Array.from({ length: 10 }, (_, index) => `backend-article-${index + 11}`),
    );
    expect(backend.calls()).toEqual([
      {
        path: "/get_metainfo",
        query: { domain: "zen.example.org", page: "2" },
        rawQuery: "?domain=zen.example.org&page=2",
        authorization: `Bearer ${FAKE_TOKEN}`,
        at: expect.any(Number),
      },
    ]);
  });

  it("sends the slug URL-encoded, exactly as decoded from the visitor's URL", async () => {
    await source().article("tea & zen/ü?x=1#y");
    expect(backend.calls()[0]?.rawQuery).toBe("?slug=tea%20%26%20zen%2F%C3%BC%3Fx%3D1%23y");
    expect(backend.calls()[0]?.query).toEqual({ slug: "tea & zen/ü?x=1#y" });
  });

  it("reads an article and turns null optional fields into absent ones", async () => {
    const article = await source().article("backend-article-4");
    expect(article).toMatchObject({ metaTitle: "Backend Article 4: Notes on Practice", date: expect.any(String) });
    expect(article?.pinterestImageLink).toBeUndefined();
    expect(article?.blog).toContain("## Section for 4");
  });

  it("treats 404 and an empty reply as no article", async () => {
    expect(await source().article("no-such-article")).toBeNull();
    expect(await source().article("fault-null")).toBeNull();
  });

  it.each([
    ["fault-500", /answered 500/],
    ["fault-401", /answered 401/],
    ["fault-not-json", /not JSON/],
    ["fault-truncated", /not JSON/],
    ["fault-wrong-types", /did not fit.*metaTitle/],
    ["fault-huge", /byte limit/],
  ])("fails cleanly on %s", async (slug, reason) => {
    const error = await source()
      .article(slug)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlogUnavailableError);
    expect((error as Error).message).toMatch(reason);
  });

  it("retries a 5xx once, then gives up", async () => {
    await expect(source().article("fault-500")).rejects.toThrow(BlogUnavailableError);
    expect(backend.calls().filter((call) => call.path === "/get_details")).toHaveLength(2);
  });

  it("does not retry a 4xx", async () => {
    await expect(source().article("fault-401")).rejects.toThrow(BlogUnavailableError);
    expect(backend.calls()).toHaveLength(1);
  });

  it("stops a hanging backend within the time budget", async () => {
    const started = Date.now();
    await expect(source({ timeoutMs: 300 }).article("fault-hang")).rejects.toThrow(/timed out after 300 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("fails when the credential is refused or the list reply does not fit", async () => {
    await expect(source({ token: "wrong" }).listPage("x.org", 1)).rejects.toThrow(/answered 401/);
    backend.state.listBody = { blogs: [{ slug: 5 }], total: "many" };
    await expect(source().listPage("x.org", 1)).rejects.toThrow(/did not fit/);
  });

  it("fails on connection refused, after one retry", async () => {
    const dead = createHttpSource({ baseUrl: "http://127.0.0.1:9", token: "t", timeoutMs: 1000 });
    await expect(dead.listPage("x.org", 1)).rejects.toThrow(/network error/);
  });

  it("reads replies that start with a UTF-8 byte order mark", async () => {
    backend.state.bom = true;
    expect((await source().listPage("x.org", 1)).blogs).toHaveLength(10);
    expect(await source().article("backend-article-3")).toMatchObject({
      metaTitle: "Backend Article 3: Notes on Practice",
    });
  });

  it("leaves out list entries that do not fit, with one warning for the reply", async () => {
    const good = (n: number) => ({ id: n, slug: `good-${n}`, metaTitle: `Good ${n}`, metaDescription: "d" });
    backend.state.listBody = {
      blogs: [
        good(1),
        { ...good(2), slug: "" },
        good(3),
        { ...good(4), slug: "s".repeat(301) },
        { ...good(5), metaTitle: 5 },
        good(6),
      ],
      total: 6,
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const page = await source().listPage("x.org", 1);
      expect(page.blogs.map((blog) => blog.slug)).toEqual(["good-1", "good-3", "good-6"]);
      expect(page.total).toBe(6);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /^Blog list "x\.org" page 1: left out 3 entries that did not fit \(blogs\.1\.slug: .*blogs\.3\.slug: .*blogs\.4\.metaTitle: /,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("drops links that are not http(s) or site-relative", async () => {
    backend.state.listBody = {
      blogs: [
        { id: 1, slug: "a", metaTitle: "A", metaDescription: null, pinterestImageLink: "javascript:alert(1)" },
        { id: 2, slug: "b", metaTitle: "B", metaDescription: "d", pinterestImageLink: "/images/b.jpg" },
        { id: 3, slug: "c", metaTitle: "C", metaDescription: "d", pinterestImageLink: "//evil.example/x.jpg" },
      ],
      total: 3,
    };
    const page = await source().listPage("x.org", 1);
    expect(page.blogs.map((blog) => blog.pinterestImageLink)).toEqual([undefined, "/images/b.jpg", undefined]);
    expect(page.blogs[0]).toMatchObject({ id: "1", metaDescription: "" });
  });
});
