import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { articleSchema, MAX_LINK_LENGTH, readListReply } from "~/blog/schema.server";
import { isPossibleSlug, MAX_SLUG_LENGTH, slugFromPath } from "~/blog/slug";
import { PAGE_SIZE } from "~/blog/pagination";

// What the site keeps of the backend's replies: a list page's entries one by one, the image and video
// links' length, and the slug an article's address names.

const goodEntry = fc
  .record({ n: fc.nat(), title: fc.string({ minLength: 1, maxLength: 20 }).filter((title) => title.trim() !== "") })
  .map(({ n, title }) => ({
    id: n,
    slug: `good-${n}`,
    metaTitle: title,
    metaDescription: "d",
    pinterestImageLink: null,
  }));

/** Entries the site cannot show: each one used to fail the whole page. */
const badEntry = fc.oneof(
  fc
    .constantFrom("", "   ", "\t", ".", " .. ")
    .map((slug) => ({ id: 1, slug, metaTitle: "Blank slug, or a step up the path" })),
  fc
    .integer({ min: MAX_SLUG_LENGTH + 1, max: MAX_SLUG_LENGTH + 200 })
    .map((length) => ({ id: 2, slug: "s".repeat(length), metaTitle: "Long slug" })),
  fc
    .oneof(fc.integer(), fc.constant(null), fc.constant("  "), fc.constant(["a"]))
    .map((metaTitle) => ({ id: 3, slug: "bad-title", metaTitle })),
  fc.record({ id: fc.constant(4), slug: fc.constant("no-title") }),
  fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.constant([])),
);

type Tagged = { good: boolean; entry: unknown };

describe("a list reply with entries that do not fit", () => {
  it("keeps the entries that fit, in order, up to a page's worth, with the backend's total, and says what it left out", () => {
    const tagged = fc.oneof(
      goodEntry.map((entry): Tagged => ({ good: true, entry })),
      badEntry.map((entry): Tagged => ({ good: false, entry })),
    );
    fc.assert(
      fc.property(fc.array(tagged, { maxLength: 30 }), fc.nat(1000), (entries, total) => {
        const read = readListReply({ blogs: entries.map((item) => item.entry), total });
        expect(read.success).toBe(true);
        if (!read.success) return;
        const good = entries.filter((item) => item.good).map((item) => (item.entry as { slug: string }).slug);
        expect(read.data.blogs.map((blog) => blog.slug)).toEqual(good.slice(0, PAGE_SIZE));
        expect(read.data.total).toBe(total);
        // The entries read are those up to the tenth good one: the bad ones among them are told.
        let goodRead = 0;
        let badRead = 0;
        for (const item of entries) {
          if (goodRead === PAGE_SIZE) break;
          if (item.good) goodRead += 1;
          else badRead += 1;
        }
        const told = read.notes.join("; ");
        if (badRead) expect(told).toMatch(new RegExp(`left out ${badRead} entr(y|ies) that did not fit`));
        else expect(told).not.toContain("left out");
      }),
      { numRuns: 300 },
    );
  });

  it("blank slug, 301-character slug and numeric title: each left out, the rest shown", () => {
    const good = { id: 1, slug: "kept", metaTitle: "Kept", metaDescription: "d" };
    const read = readListReply({
      blogs: [
        { ...good, slug: " " },
        good,
        { ...good, slug: "x".repeat(MAX_SLUG_LENGTH + 1) },
        { ...good, metaTitle: 42 },
      ],
      total: 4,
    });
    expect(read).toMatchObject({ success: true, data: { blogs: [{ slug: "kept" }], total: 4 } });
    // One note for the log, naming each entry and field.
    expect(read.success && read.notes).toHaveLength(1);
    expect(read.success && read.notes[0]).toMatch(
      /^left out 3 entries that did not fit \(blogs\.0\.slug: .+; blogs\.2\.slug: .+; blogs\.3\.metaTitle: .+\)$/,
    );
  });

  it("a slug of exactly the longest length is kept: its article's address is one the site answers", () => {
    const slug = "y".repeat(MAX_SLUG_LENGTH);
    const read = readListReply({ blogs: [{ id: 1, slug, metaTitle: "Longest" }], total: 1 });
    expect(read.success && read.data.blogs[0]?.slug).toBe(slug);
    expect(isPossibleSlug(slug)).toBe(true);
  });

  it("5,000 entries give one page of ten, and the backend's total", () => {
    const blogs = Array.from({ length: 5000 }, (_, index) => ({
      id: index,
      slug: `entry-${index}`,
      metaTitle: `Entry ${index}`,
    }));
    const read = readListReply({ blogs, total: 5000 });
    expect(read.success && read.data.blogs.map((blog) => blog.slug)).toEqual(
      blogs.slice(0, PAGE_SIZE).map((blog) => blog.slug),
    );
    expect(read.success && read.data.total).toBe(5000);
    expect(read.success && read.notes).toEqual([`kept the first ${PAGE_SIZE} of 5000 entries`]);
  });

  it("without a total, the entries kept are the total", () => {
    const read = readListReply({
      blogs: [
        { id: 1, slug: "a", metaTitle: "A" },
        { id: 2, slug: "", metaTitle: "B" },
      ],
    });
    expect(read.success && read.data.total).toBe(1);
  });

  it.each([
    ["blogs that are no list", { blogs: "not a list", total: 1 }],
    ["a negative total", { blogs: [], total: -1 }],
    ["a total that is no number", { blogs: [], total: "many" }],
    ["no object", "<html>"],
  ])("a reply whose shape is wrong still fails: %s", (_name, body) => {
    expect(readListReply(body).success).toBe(false);
  });
});

describe("image and video links", () => {
  const article = (link: string) =>
    articleSchema.parse({ metaTitle: "T", pinterestImageLink: link, youtubeShortsUrl: link });

  it("a link is kept up to MAX_LINK_LENGTH bytes as written, and counts as none beyond", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30_000 }),
        fc.constantFrom("https://images.example/", "/images/"),
        (length, start) => {
          const link = `${start}${"a".repeat(length)}.jpg`;
          const kept = article(link);
          const fits = link.length <= MAX_LINK_LENGTH;
          expect(kept.pinterestImageLink).toBe(fits ? link : undefined);
          expect(kept.youtubeShortsUrl).toBe(fits ? link : undefined);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("measures the link as written out: characters that percent-encoding or UTF-8 make longer count as such", () => {
    // 700 characters, 2,100 bytes of UTF-8, 6,300 characters percent-encoded.
    expect(article(`https://images.example/${"禅".repeat(700)}.jpg`).pinterestImageLink).toBeUndefined();
    expect(article(`/images/${"禅".repeat(700)}.jpg`).pinterestImageLink).toBeUndefined();
    expect(article(`https://images.example/${"禅".repeat(200)}.jpg`).pinterestImageLink).toMatch(
      /^https:\/\/images\.example\/(%E7%A6%85){200}\.jpg$/,
    );
  });
});

describe("the slug in an article's address", () => {
  it("is the slug the list's link was written from, decoded once, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), (slug) => {
        expect(slugFromPath(`/blog/${encodeURIComponent(slug)}`)).toBe(slug);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ["/blog/a%252Fb", "a%2Fb"],
    ["/blog/a%2Fb", "a/b"],
    ["/blog/a%25b", "a%b"],
    ["/blog/a%2525", "a%25"],
    ["/blog/beginners-mind", "beginners-mind"],
    ["/blog/beginners-mind/", "beginners-mind"],
  ])("%s names the slug %s", (path, slug) => {
    expect(slugFromPath(path)).toBe(slug);
  });

  it.each(["/blog", "/blog/", "/blog/a/b", "/blog/%E0%A4%A", "/other/a"])("%s names none", (path) => {
    expect(slugFromPath(path)).toBeUndefined();
  });

  it("a blank slug, one over the longest length, or a step up the path is none the site can have", () => {
    expect(isPossibleSlug(" ")).toBe(false);
    expect(isPossibleSlug("z".repeat(MAX_SLUG_LENGTH + 1))).toBe(false);
    expect(isPossibleSlug(".")).toBe(false);
    expect(isPossibleSlug("..")).toBe(false);
    expect(isPossibleSlug("a/b")).toBe(true);
    expect(isPossibleSlug("...")).toBe(true);
  });
});
