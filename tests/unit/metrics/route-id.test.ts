import fc from "fast-check";
import { matchRoutes, type RouteObject } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { routeIdMatcher } from "~/metrics/route-id";

// The app's routes as the Remix build lists them (flat, each naming its parent).
const routes = Object.fromEntries(
  [
    { id: "root", path: "" },
    { id: "routes/_index", parentId: "root", index: true },
    { id: "routes/blog._index", parentId: "root", path: "blog", index: true },
    { id: "routes/blog.$slug", parentId: "root", path: "blog/:slug" },
    { id: "routes/blog.rss[.]xml", parentId: "root", path: "blog/rss.xml" },
    { id: "routes/img.$", parentId: "root", path: "img/*" },
    { id: "routes/sitemap[.]xml", parentId: "root", path: "sitemap.xml" },
    { id: "routes/$", parentId: "root", path: "*" },
  ].map((route) => [route.id, route]),
);

describe("route id of a path", () => {
  const routeOf = routeIdMatcher(routes);

  it("names the Remix route that answers, never the path", () => {
    expect(routeOf("/")).toBe("routes/_index");
    expect(routeOf("/blog")).toBe("routes/blog._index");
    expect(routeOf("/blog/beginners-mind")).toBe("routes/blog.$slug");
    expect(routeOf("/blog/rss.xml")).toBe("routes/blog.rss[.]xml");
    expect(routeOf("/img/r/abc/200x200/x.webp")).toBe("routes/img.$");
    expect(routeOf("/sitemap.xml")).toBe("routes/sitemap[.]xml");
  });

  it("gives unknown and hostile paths the catch-all route", () => {
    for (const path of ["/wp-admin.php", "/blog/a/b/c", "/%3Cscript%3E", "/../../etc/passwd", `/${"x".repeat(5000)}`]) {
      expect(routeOf(path)).toBe("routes/$");
    }
  });

  it("names the same route for a path that cannot be decoded as the router does, without a warning for each", () => {
    // The router's own answer, its warning silenced: it matches such a path as it stands.
    const tree: RouteObject[] = [
      {
        id: "root",
        path: "",
        children: Object.values(routes)
          .filter((route) => route.parentId === "root")
          .map(({ id, path, index }) => (index ? { id, path, index: true } : { id, path })),
      },
    ];
    const routersAnswer = (path: string) => {
      const quiet = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        return matchRoutes(tree, path)?.at(-1)?.route.id ?? "none";
      } finally {
        quiet.mockRestore();
      }
    };
    const segment = fc.string({
      unit: fc.constantFrom("%", "a", "E0", "A4", "2F", "/", "}", "-", "é", ".data", "blog", "img"),
      maxLength: 8,
    });
    fc.assert(
      fc.property(fc.constantFrom("/", "/blog/", "/img/", "/blog/x/"), segment, (start, rest) => {
        const path = `${start}${rest}`;
        const expected = routersAnswer(path.replace(/\.data$/, ""));
        const warn = vi.spyOn(console, "warn");
        try {
          // A matcher of its own for each path: the recent answers' cache would hide a second call.
          expect(routeIdMatcher(routes)(path)).toBe(expected);
          expect(warn).not.toHaveBeenCalled();
        } finally {
          warn.mockRestore();
        }
      }),
    );
  });

  it("names the page's route for the data requests of client navigation", () => {
    expect(routeOf("/_root.data")).toBe("routes/_index");
    expect(routeOf("/blog.data")).toBe("routes/blog._index");
    expect(routeOf("/blog/beginners-mind.data")).toBe("routes/blog.$slug");
  });

  it("gives none when no route takes the path", () => {
    const withoutCatchAll = routeIdMatcher({
      root: { id: "root", path: "" },
      "routes/_index": { id: "routes/_index", parentId: "root", index: true },
    });
    expect(withoutCatchAll("/nowhere")).toBe("none");
    expect(withoutCatchAll("/")).toBe("routes/_index");
  });
});
