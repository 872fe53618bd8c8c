import { describe, expect, it } from "vitest";
import { pageAddress } from "~/document/page-address";

describe("pageAddress", () => {
  it("drops click ids, campaign tags and unknown parameters", () => {
    expect(pageAddress("/blog/beginners-mind?fbclid=IwAR3x_9&utm_source=facebook&utm_medium=social")).toBe(
      "/blog/beginners-mind",
    );
    expect(pageAddress("/?gclid=abc&msclkid=def&x=1")).toBe("/");
    expect(pageAddress("/blog/beginners-mind?")).toBe("/blog/beginners-mind");
    expect(pageAddress("/blog/beginners-mind")).toBe("/blog/beginners-mind");
  });

  it("keeps what the page reads, every occurrence in order, matched by the name as sent", () => {
    expect(pageAddress("/blog?fbclid=x&page=2&utm_campaign=y")).toBe("/blog?page=2");
    expect(pageAddress("/blog?page=2&fbclid=x&page=3")).toBe("/blog?page=2&page=3");
    expect(pageAddress("/blog?page&page=")).toBe("/blog?page&page=");
    expect(pageAddress("/blog?p%61ge=2&xpage=3&page2=4")).toBe("/blog");
    expect(pageAddress("/sitemap-articles.xml?part=2&utm_source=x")).toBe("/sitemap-articles.xml?part=2");
    expect(pageAddress("/?page=2")).toBe("/");
    expect(pageAddress("/blog/rss.xml?part=2")).toBe("/blog/rss.xml");
  });

  it("keeps the routes and page of Remix's data requests, and the paths and version of its route discovery", () => {
    expect(pageAddress("/blog.data?page=3&_routes=routes%2Fblog._index&fbclid=x")).toBe(
      "/blog.data?page=3&_routes=routes%2Fblog._index",
    );
    expect(pageAddress("/blog/beginners-mind.data?_routes=routes%2Fblog.%24slug&utm_source=x")).toBe(
      "/blog/beginners-mind.data?_routes=routes%2Fblog.%24slug",
    );
    expect(pageAddress("/_root.data?_routes=root&gclid=y")).toBe("/_root.data?_routes=root");
    expect(pageAddress("/__manifest?p=%2Fblog&p=%2F&version=3d10f3c7&fbclid=x")).toBe(
      "/__manifest?p=%2Fblog&p=%2F&version=3d10f3c7",
    );
  });
});
