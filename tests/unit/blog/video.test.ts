import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
    const mention = fc
      .tuple(fc.constantFrom("youtube.com/shorts/", "www.youtube.com/shorts/", "youtu.be/"), videoId)
      .map(([path, id]) => path + id);
    const otherHost = fc.domain().filter((host) => !/^((www|m)\.)?youtube\.com$|^youtu\.be$/.test(host));
    const hostile = fc.oneof(
      // On another host: in the path, the query, the fragment, or as its user name.
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/?u=${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${host}/#${found}`),
      fc.tuple(otherHost, mention).map(([host, found]) => `https://${found.replace(/\//g, "%2F")}@${host}/`),
      fc
        .tuple(otherHost, mention)
        .map(([host, found]) => `https://${found.split("/")[0]}.${host}/${found.split("/").slice(1).join("/")}`),
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
