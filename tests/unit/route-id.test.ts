import { describe, expect, it } from "vitest";
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

  it("names the page's route for the data requests of client navigation", () => {
    expect(routeOf("/_root.data")).toBe("routes/_index");
    expect(routeOf("/blog.data")).toBe("routes/blog._index");
    expect(routeOf("/blog/beginners-mind.data")).toBe("routes/blog.$slug");
  });

  it("gives none when no route takes the path", () => {
    const withoutCatchAll = routeIdMatcher({ root: { id: "root", path: "" }, "routes/_index": { id: "routes/_index", parentId: "root", index: true } });
    expect(withoutCatchAll("/nowhere")).toBe("none");
    expect(withoutCatchAll("/")).toBe("routes/_index");
  });
});
