import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArticleView } from "~/blog/types";
import { articleObject, hashtagOf, instantOf } from "~/fediverse/article-object";

const origin = "https://zen.example.org";
const to = (slug: string) => ({
  id: new URL(`/ap/articles/${slug}`, origin),
  page: new URL(`/blog/${slug}`, origin),
  actor: new URL("/ap/actor/zen", origin),
  followers: new URL("/ap/followers/zen", origin),
  origin,
});

const view = (fields: Partial<ArticleView>): ArticleView => ({
  slug: "a",
  metaTitle: "A title",
  metaDescription: "A description",
  date: "2024-06-01",
  bodyHtml: "",
  keywords: { shortTail: [], longTail: [] },
  readingMinutes: 1,
  ...fields,
});

describe("an article as the social web shows it", () => {
  it("keeps any title, description and keyword as text: the content's markup is only the site's own, and no summary (Mastodon's content warning)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.string({ maxLength: 400 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 8 }),
        fc.option(fc.oneof(fc.webUrl(), fc.string({ maxLength: 60 })), { nil: undefined }),
        async (title, description, keywords, image) => {
          const object = articleObject(
            view({
              metaTitle: title,
              metaDescription: description,
              keywords: { shortTail: keywords, longTail: [] },
              pinterestImageLink: image,
            }),
            to("a"),
            "en",
          );
          const json = (await object.toJsonLd()) as Record<string, unknown>;
          const content = String(json.content);
          // Only <p> and <a> of the site's making: whatever the fields hold is escaped text.
          expect(content.replace(/<\/?p>|<\/?strong>/g, "")).not.toMatch(/[<>]/);
          expect(json).not.toHaveProperty("summary");
          expect(json.url).toBe(`${origin}/blog/a`);
          expect(json.name).toBe(title);
          for (const tag of [json.tag ?? []].flat() as { name: string }[])
            expect(tag.name).toMatch(/^#[\p{L}\p{N}\p{M}_]+$/u);
          if (json.image) expect(String((json.image as { url: string }).url)).toMatch(/^https?:\/\//);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes keywords as Mastodon's hashtags, and none for a keyword without letters or digits", () => {
    expect(hashtagOf("Zen retreat")).toBe("#ZenRetreat");
    expect(hashtagOf("zen retreat")).toBe("#zenRetreat");
    expect(hashtagOf("thiền định")).toBe("#thiềnĐịnh");
    expect(hashtagOf("  -- ")).toBeUndefined();
  });

  it("dates an article at midnight UTC of its day, or not at all when the date does not parse", () => {
    expect(instantOf("2024-06-01")?.toString()).toBe("2024-06-01T00:00:00Z");
    expect(instantOf("2024-06-01T08:30:00+07:00")?.toString()).toBe("2024-06-01T01:30:00Z");
    expect(instantOf("not a date")).toBeUndefined();
  });
});
