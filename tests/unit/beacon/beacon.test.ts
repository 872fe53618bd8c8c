import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, parseBeacon, vitalsOf } from "~/beacon/body.server";
import { culpritLabels } from "~/beacon/culprits.server";
import { beaconLimits } from "~/beacon/rate-limit.server";
import { notCounted, readerAddress } from "~/beacon/readers.server";

// The pure parts of the Web Vitals endpoint (app/vitals, docs/decisions/047): the body, the labels of the
// elements responsible, who is not counted, and the rate limits. The endpoint itself: tests/server/web-vitals.test.ts.

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
const beacon = (metrics: unknown, extra: object = {}) =>
  JSON.stringify({ v: 1, kind: "vitals", path: "/blog/a", metrics, ...extra });

describe("a beacon's body", () => {
  it("is read as the browser sends it, each value in its histogram's unit", () => {
    const report = parseBeacon(
      beacon({
        LCP: [2400.5, "main>img"],
        FCP: [900, ""],
        TTFB: [125, ""],
        INP: [232, "button#menu"],
        CLS: [0.1234, "div#ads>div"],
      }),
    );
    expect(report?.path).toBe("/blog/a");
    expect(vitalsOf(report!)).toEqual([
      { metric: "LCP", value: 2.4005, element: "main>img" },
      { metric: "FCP", value: 0.9, element: "" },
      { metric: "TTFB", value: 0.125, element: "" },
      { metric: "INP", value: 0.232, element: "button#menu" },
      { metric: "CLS", value: 0.1234, element: "div#ads>div" },
    ]);
    expect(vitalsOf(parseBeacon(beacon({ CLS: [0] }))!)).toEqual([{ metric: "CLS", value: 0, element: undefined }]);
  });

  it("is refused whole when anything in it is not what a browser sends", () => {
    const refused = [
      "",
      "{",
      "null",
      "[]",
      '"vitals"',
      beacon({ FID: [100] }),
      '{"v":1,"kind":"vitals","path":"/blog/a","metrics":{"__proto__":[1]}}',
      beacon({ LCP: [-1] }),
      beacon({ LCP: [60_001] }),
      beacon({ TTFB: ["100"] }),
      beacon({ CLS: [10.5] }),
      beacon({ INP: [100, "button", "more"] }),
      beacon({ LCP: [100, "x".repeat(201)] }),
      '{"v":1,"kind":"vitals","path":"/","metrics":{"LCP":[1e999]}}',
      beacon({}, { v: 2 }),
      beacon({}, { kind: "pageview" }),
      beacon({}, { path: "blog/a" }),
      beacon({}, { path: `/${"a".repeat(512)}` }),
      beacon({}, { site: "forged.example" }),
      JSON.stringify({ v: 1, kind: "vitals", metrics: {} }),
    ];
    for (const text of refused) expect(parseBeacon(text), text.slice(0, 80)).toBeUndefined();
    expect(MAX_BODY_BYTES).toBe(4096);
  });
});

describe("the element responsible for a value beyond good", () => {
  it("is named only for LCP, INP and CLS beyond their good thresholds", () => {
    const label = culpritLabels();
    expect(label("LCP", 2.5, "main>img")).toBeUndefined();
    expect(label("LCP", 2.6, "main>img")).toBe("main>img");
    expect(label("INP", 0.2, "button")).toBeUndefined();
    expect(label("INP", 0.21, "button")).toBe("button");
    expect(label("CLS", 0.1, "div")).toBeUndefined();
    expect(label("CLS", 0.11, "div#ads>div")).toBe("div#ads>div");
    expect(label("FCP", 9, "main")).toBeUndefined();
    expect(label("TTFB", 9, "main")).toBeUndefined();
    expect(label("LCP", 3, "")).toBe("unknown");
    expect(label("LCP", 3, undefined)).toBe("unknown");
  });

  it("keeps the first selectors of each metric by name and puts any other, or any not of the browser's form, in other", () => {
    const label = culpritLabels(3);
    expect(["a", "b>c", "main#x>p", "d", "e"].map((selector) => label("LCP", 3, selector))).toEqual([
      "a",
      "b>c",
      "main#x>p",
      "other",
      "other",
    ]);
    expect(label("LCP", 3, "a")).toBe("a");
    // Another metric has its own three.
    expect(label("CLS", 1, "d")).toBe("d");
    const forged = ['img[src="x"]', "<script>", "a b", "#id", "div>", ">div", "a\nb", `a#${"x".repeat(100)}`, 'x"}'];
    for (const selector of forged) expect(culpritLabels()("INP", 1, selector), selector).toBe("other");
  });
});

describe("who is not counted", () => {
  const reader = { "sec-fetch-site": "same-origin", "user-agent": CHROME };

  it("counts a reader's same-origin beacon, by Sec-Fetch-Site or, without it, by Origin", () => {
    expect(notCounted(reader, "zen.example.org")).toBeUndefined();
    expect(notCounted({ origin: "https://zen.example.org", "user-agent": CHROME }, "zen.example.org")).toBeUndefined();
    expect(notCounted({ origin: "http://127.0.0.1:3000", "user-agent": CHROME }, "127.0.0.1")).toBeUndefined();
  });

  it("refuses posts from other sites, or from no page at all", () => {
    for (const site of ["cross-site", "same-site", "none", ""])
      expect(notCounted({ ...reader, "sec-fetch-site": site }, "zen.example.org")).toBe("cross_site");
    for (const origin of ["https://evil.example", "https://zen.example.org.evil.example", "null", "not a url"]) {
      expect(notCounted({ origin, "user-agent": CHROME }, "zen.example.org"), origin).toBe("cross_site");
    }
    expect(notCounted({ "user-agent": CHROME }, "zen.example.org")).toBe("cross_site");
    // A browser's Sec-Fetch-Site is believed over an Origin that says otherwise.
    expect(
      notCounted({ ...reader, "sec-fetch-site": "cross-site", origin: "https://zen.example.org" }, "zen.example.org"),
    ).toBe("cross_site");
  });

  it("does not count readers who ask not to be tracked, prefetches, bots or headless browsers", () => {
    expect(notCounted({ ...reader, "sec-gpc": "1" }, "z")).toBe("opted_out");
    expect(notCounted({ ...reader, dnt: "1" }, "z")).toBe("opted_out");
    expect(notCounted({ ...reader, dnt: "0" }, "z")).toBeUndefined();
    expect(notCounted({ ...reader, "sec-purpose": "prefetch" }, "z")).toBe("prefetch");
    expect(notCounted({ ...reader, "sec-purpose": "prefetch;prerender" }, "z")).toBe("prefetch");
    expect(notCounted({ ...reader, purpose: "prefetch" }, "z")).toBe("prefetch");
    for (const agent of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36",
      "curl/8.5.0",
      "python-requests/2.32",
      "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "",
    ]) {
      expect(notCounted({ ...reader, "user-agent": agent }, "z"), agent).toBe("bot");
    }
    expect(notCounted({ ...reader, "sec-ch-ua": '"HeadlessChrome";v="142", "Chromium";v="142"' }, "z")).toBe("bot");
  });

  it("knows a reader by the socket's address, or by the last X-Forwarded-For entry when a proxy on this machine sent it", () => {
    expect(readerAddress("203.0.113.9", undefined)).toBe("203.0.113.9");
    expect(readerAddress("203.0.113.9", "198.51.100.1")).toBe("203.0.113.9");
    expect(readerAddress("127.0.0.1", "198.51.100.7, 203.0.113.5")).toBe("203.0.113.5");
    expect(readerAddress("::ffff:127.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
    expect(readerAddress("::1", "2001:db8::1")).toBe("2001:db8::1");
    expect(readerAddress("127.0.0.1", undefined)).toBe("127.0.0.1");
    expect(readerAddress("127.0.0.1", " , ")).toBe("127.0.0.1");
  });
});

describe("the rate limits", () => {
  it("let a reader's burst through, then one beacon a refill, each reader on their own", () => {
    let time = 0;
    const allowed = beaconLimits({ perReader: { burst: 3, perSecond: 1 }, now: () => time });
    expect([1, 2, 3, 4].map(() => allowed("198.51.100.1"))).toEqual([true, true, true, false]);
    expect(allowed("198.51.100.2")).toBe(true);
    time += 1000;
    expect([allowed("198.51.100.1"), allowed("198.51.100.1")]).toEqual([true, false]);
  });

  it("hold the whole process to its own rate, whatever the number of addresses", () => {
    let time = 0;
    const allowed = beaconLimits({ overall: { burst: 10, perSecond: 5 }, now: () => time });
    const counted = Array.from({ length: 50 }, (_, n) => allowed(`198.51.100.${n}`)).filter(Boolean).length;
    expect(counted).toBe(10);
    time += 1000;
    expect(Array.from({ length: 50 }, (_, n) => allowed(`203.0.113.${n}`)).filter(Boolean).length).toBe(5);
  });

  it("keep a bounded number of readers, forgetting the least recent", () => {
    const allowed = beaconLimits({ perReader: { burst: 1, perSecond: 0 }, readers: 2, now: () => 0 });
    expect([allowed("a"), allowed("a")]).toEqual([true, false]);
    allowed("b");
    allowed("c");
    // "a" was forgotten: a fresh bucket.
    expect(allowed("a")).toBe(true);
  });
});
