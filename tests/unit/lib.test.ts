import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTranslator } from "~/i18n/messages";
import { dateTime, formatPublishedDate, isoDate } from "~/blog/dates";
import { domainFromHost } from "~/site/domain";
import { parseHostHeader } from "~/site/host";
import { inlineCall } from "~/document/inline-script";
import { splitKeywords } from "~/blog/keywords";
import { pageCount, pageHref, pageWindow, parsePageParam } from "~/blog/pagination";
import { pageAddress } from "~/document/page-address";
import { canonicalHref, noindexMeta, pageMeta } from "~/crawlers/seo";
import { isScrolledPast } from "~/document/scroll";
import { sectionHref } from "~/site/site-sections";
import { extractVideoId, videoEmbedUrl } from "~/blog/video";

describe("video id", () => {
  it.each([
    ["https://www.youtube.com/shorts/abc_DEF-123", "abc_DEF-123"],
    ["https://youtube.com/shorts/Xy12?feature=share", "Xy12"],
    ["https://youtu.be/dQw-4w9_WgX", "dQw-4w9_WgX"],
    ["https://m.youtube.com/shorts/a1b2c3", "a1b2c3"],
  ])("takes the id from %s", (url, id) => {
    expect(extractVideoId(url)).toBe(id);
  });

  it.each([
    "https://www.youtube.com/watch?v=abc123",
    "https://vimeo.com/123456",
    "https://www.youtube.com/shorts/",
    "not a url",
    "",
    null,
    undefined,
  ])("finds no video in %s", (url) => {
    expect(extractVideoId(url)).toBeUndefined();
  });

  const videoId = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
  const youtubeHost = fc.constantFrom("youtube.com", "www.youtube.com", "m.youtube.com", "WWW.YouTube.com");
  const tail = fc.constantFrom("", "/", "?feature=share", "?si=abc&t=3", "#top");

  it("takes the id from any shorts path or short link on the provider's own hosts", () => {
    fc.assert(
      fc.property(fc.constantFrom("https", "http"), youtubeHost, videoId, tail, (scheme, host, id, rest) => {
        expect(extractVideoId(`${scheme}://${host}/shorts/${id}${rest}`)).toBe(id);
        expect(extractVideoId(`${scheme}://youtu.be/${id}${rest}`)).toBe(id);
      }),
    );
  });

  it("finds none when the provider's path is only mentioned on another host, or in the wrong place", () => {
    const mention = fc.tuple(fc.constantFrom("youtube.com/shorts/", "www.youtube.com/shorts/", "youtu.be/"), videoId).map(([path, id]) => path + id);
    const otherHost = fc.domain().filter((host) => !/^((www|m)\.)?youtube\.com$|^youtu\.be$/.test(host));
    const hostile = fc.oneof(
      // On another host: in the path, the query, the fragment, or as its user name.
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/?u=${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/#${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${found.replace(/\//g, "%2F")}@${host}/`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${found.split("/")[0]}.${host}/${found.split("/").slice(1).join("/")}`),
      // On the provider's host, but not a shorts path or short link.
      fc.tuple(youtubeHost, mention).map(([host, found]) => `https://${host}/redirect?q=${found}`),
      fc.tuple(youtubeHost, videoId).map(([host, id]) => `https://${host}/watch?v=${id}`),
      fc.tuple(youtubeHost, videoId).map(([host, id]) => `https://${host}/x/shorts/${id}`),
      videoId.map((id) => `https://youtu.be/x/${id}`),
      videoId.map((id) => `ftp://youtu.be/${id}`),
    );
    fc.assert(
      fc.property(hostile, (link) => {
        expect(extractVideoId(link), link).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    "https://evil.example/?u=youtube.com/shorts/abc",
    "https://evil.example/youtu.be/abc",
    "https://youtube.com.evil.example/shorts/abc",
    "https://notyoutube.com/shorts/abc",
    "https://youtube.com@evil.example/shorts/abc",
    "https://www.youtube.com/shorts/abc.def",
  ])("finds none in %s", (link) => {
    expect(extractVideoId(link)).toBeUndefined();
  });

  it("embeds with exactly the spec's player parameters", () => {
    const url = new URL(videoEmbedUrl("abc_DEF-123"));
    expect(url.pathname).toBe("/embed/abc_DEF-123");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      autoplay: "0",
      mute: "1",
      controls: "1",
      showinfo: "0",
      rel: "0",
      iv_load_policy: "3",
      modestbranding: "1",
    });
  });
});

describe("keywords", () => {
  it("splits on commas, trims and drops empties and repeats", () => {
    expect(splitKeywords(" zen, , koan ,Zen,meditation practice ,")).toEqual(["zen", "koan", "meditation practice"]);
  });
  it("gives nothing for missing values", () => {
    expect(splitKeywords(undefined)).toEqual([]);
    expect(splitKeywords(null)).toEqual([]);
    expect(splitKeywords(" , ")).toEqual([]);
  });
});

describe("page parameter", () => {
  const parse = (query: string) => parsePageParam(new URLSearchParams(query));
  it("reads a plain page number", () => {
    expect(parse("")).toEqual({ page: 1, canonical: true });
    expect(parse("page=3")).toEqual({ page: 3, canonical: true });
    expect(parse("page=3&utm_source=x")).toEqual({ page: 3, canonical: true });
  });
  it("sends page 1 and every malformed value to /blog", () => {
    for (const query of ["page=1", "page=0", "page=-2", "page=2.5", "page=abc", "page=", "page=2&page=3", "page=01", "page=1e3", "page=9999999999", "page=%20"]) {
      expect(parse(query)).toEqual({ page: 1, canonical: false, redirectTo: "/blog" });
    }
  });
  it("links page 1 as /blog", () => {
    expect(pageHref(1)).toBe("/blog");
    expect(pageHref(4)).toBe("/blog?page=4");
  });
});

describe("pagination window", () => {
  it("counts pages of ten", () => {
    expect(pageCount(0)).toBe(0);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(23)).toBe(3);
  });
  it("shows at most five numbers that move with the current page", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(4, 12)).toEqual([2, 3, 4, 5, 6]);
    expect(pageWindow(8, 12)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(12, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(1, 0)).toEqual([]);
  });
});

describe("dates", () => {
  it("prints US English long dates, the same day in every time zone", () => {
    expect(formatPublishedDate("2024-01-05")).toBe("January 5, 2024");
    expect(formatPublishedDate("2024-12-31")).toBe("December 31, 2024");
    expect(formatPublishedDate("2024-03-10T12:00:00Z")).toBe("March 10, 2024");
  });
  it("gives nothing rather than 'Invalid Date'", () => {
    expect(formatPublishedDate("someday")).toBeUndefined();
    expect(formatPublishedDate("")).toBeUndefined();
    expect(isoDate("nope")).toBeUndefined();
    expect(isoDate("2024-01-05")).toBe("2024-01-05T00:00:00.000Z");
  });

  /** Every time JavaScript has, written as ISO (years beyond 9999 or before 0 with a sign, as Date.parse reads them). */
  const anyTime = fc.integer({ min: -8.64e15, max: 8.64e15 });

  it("a date in years 1 to 9999 is printed with its own year; any other is none, neither printed nor given to machines", () => {
    fc.assert(
      fc.property(anyTime, fc.boolean(), (time, dateOnly) => {
        const iso = new Date(time).toISOString();
        const value = dateOnly ? iso.replace(/T.*$/, "") : iso;
        const year = new Date(Date.parse(value)).getUTCFullYear();
        const label = formatPublishedDate(value);
        if (year >= 1 && year <= 9999) {
          expect(label).toMatch(new RegExp(`\\b${year}$`));
          expect(isoDate(value)).toBe(new Date(Date.parse(value)).toISOString());
          expect(isoDate(value)).toMatch(/^\d{4}-\d\d-\d\dT/);
        } else {
          expect(label, value).toBeUndefined();
          expect(isoDate(value), value).toBeUndefined();
          expect(dateTime(value), value).toBeUndefined();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it.each(["-271821-04-20", "+275760-09-13", "0000-01-01", "-000001-12-31", "+010000-01-01"])("%s is no date", (value) => {
    expect(formatPublishedDate(value)).toBeUndefined();
    expect(isoDate(value)).toBeUndefined();
  });

  it("the first and last years are dates", () => {
    expect(formatPublishedDate("0001-01-01")).toBe("January 1, 1");
    expect(formatPublishedDate("9999-12-31")).toBe("December 31, 9999");
  });
});

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

describe("layout helpers", () => {
  it("turns the header solid only past 20 px", () => {
    expect(isScrolledPast(0)).toBe(false);
    expect(isScrolledPast(20)).toBe(false);
    expect(isScrolledPast(21)).toBe(true);
  });
  it("links sections in place on the home page and via home elsewhere", () => {
    expect(sectionHref("about", true)).toBe("#about");
    expect(sectionHref("about", false)).toBe("/#about");
    expect(sectionHref("home", false)).toBe("/");
  });
});

describe("Host header", () => {
  it("accepts names and IPv4 addresses with an optional port", () => {
    expect(parseHostHeader("Zen.Example.org:8080")).toEqual({ name: "zen.example.org", port: 8080 });
    expect(parseHostHeader("127.0.0.1")).toEqual({ name: "127.0.0.1", port: undefined });
  });
  it.each(["", "a b", "<script>", "evil.com:99999", "evil.com:0", "x.org:80:80", "x.org/path", "[::1]", "ex ample.org", "..", "a..b", "A.0", "999.1.1.1", "x.0x10"])(
    "refuses %j",
    (header) => {
      expect(parseHostHeader(header)).toBeUndefined();
    },
  );
});

describe("inline script source", () => {
  it("calls the function with its arguments when the page runs it", () => {
    const seen: unknown[] = [];
    const record = (first: string, second: number) => (globalThis as unknown as { seen: unknown[] }).seen.push(first, second);
    (globalThis as unknown as { seen: unknown[] }).seen = seen;
    new Function(inlineCall(record, "positions", 3))();
    expect(seen).toEqual(["positions", 3]);
  });

  it("cannot close the script element from an argument", () => {
    const source = inlineCall((text: string) => text, "</script><script>alert(1)</script>");
    expect(source).not.toContain("</script>");
    expect(source).toContain("\\u003c/script\\u003e");
  });
});

describe("pageAddress", () => {
  it("drops click ids, campaign tags and unknown parameters", () => {
    expect(pageAddress("/blog/beginners-mind?fbclid=IwAR3x_9&utm_source=facebook&utm_medium=social")).toBe("/blog/beginners-mind");
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
    expect(pageAddress("/blog.data?page=3&_routes=routes%2Fblog._index&fbclid=x")).toBe("/blog.data?page=3&_routes=routes%2Fblog._index");
    expect(pageAddress("/blog/beginners-mind.data?_routes=routes%2Fblog.%24slug&utm_source=x")).toBe("/blog/beginners-mind.data?_routes=routes%2Fblog.%24slug");
    expect(pageAddress("/_root.data?_routes=root&gclid=y")).toBe("/_root.data?_routes=root");
    expect(pageAddress("/__manifest?p=%2Fblog&p=%2F&version=3d10f3c7&fbclid=x")).toBe("/__manifest?p=%2Fblog&p=%2F&version=3d10f3c7");
  });
});

describe("canonicalHref", () => {
  it("finds the canonical link among a page's tags, and nothing on a page without one", () => {
    const language = { lang: "en", ogLocale: "en_US", translator: createTranslator("en", {}) };
    const site = { product: "Zen", siteName: "Zen", origin: "https://zen.example", language };
    const tags = pageMeta({ site, path: "/blog/caf%C3%A9", title: "Café", description: "A visit." });
    expect(canonicalHref(tags)).toBe("https://zen.example/blog/caf%C3%A9");
    expect(canonicalHref(noindexMeta("Not found"))).toBeUndefined();
  });
});
