import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Federation } from "@fedify/fedify";
import { Article } from "@fedify/fedify/vocab";
import { afterAll, describe, expect, it } from "vitest";
import type { ArticleView } from "~/blog/types";
import { countFollowersOnce, publishChanges, type PublisherDeps } from "~/fediverse/publisher.server";
import { openSqliteKv } from "~/fediverse/sqlite-kv.server";

const dir = mkdtempSync(path.join(tmpdir(), "publisher-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const view = (slug: string, metaDescription = "Words."): ArticleView => ({
  slug,
  metaTitle: `Title ${slug}`,
  metaDescription,
  date: "2026-11-01",
  bodyHtml: "",
  keywords: { shortTail: [], longTail: [] },
  readingMinutes: 1,
});

/** Publishers over one store (as origins over one database), a source the test changes, and what each sent. */
function setup() {
  const kv = openSqliteKv(path.join(dir, `state-${++files}.sqlite`));
  const source = { newest: [view("a"), view("b")], listed: new Set(["a", "b"]), gone: new Set<string>() };
  const sent: { type: string; slug: string; by: number }[] = [];
  const followerCounts: string[] = [];
  const publisher = (by: number): PublisherDeps => ({
    federation: {
      createContext: () => ({
        getActorUri: () => new URL("https://zen.example.org/ap/actor/zen"),
        getFollowersUri: () => new URL("https://zen.example.org/ap/followers/zen"),
        getObjectUri: (_cls: unknown, { slug }: { slug: string }) =>
          new URL(`https://zen.example.org/ap/articles/${slug}`),
        sendActivity: async (
          _sender: unknown,
          _to: unknown,
          activity: { constructor: { name: string } },
          options: { orderingKey: string },
        ) => {
          sent.push({ type: activity.constructor.name, slug: options.orderingKey, by });
        },
      }),
    } as unknown as Federation<void>,
    kv,
    blog: {
      newestArticles: async () => source.newest,
      article: async (_domain, slug) => (source.gone.has(slug) ? null : view(slug)),
    },
    domain: "zen.example.org",
    handle: "zen",
    origin: "https://zen.example.org",
    objectOf: (article) => new Article({ id: new URL(`https://zen.example.org/ap/articles/${article.slug}`) }),
    stillListed: async (slug) => source.listed.has(slug),
    followersOfTheDay: async (day) => void followerCounts.push(`${day} by ${by}`),
    everyMs: 1000,
    onError: (error) => {
      throw error;
    },
  });
  return { source, sent, publisher, followerCounts };
}

describe("the publisher of a site's articles", () => {
  it("sends nothing for the articles there were when federation was turned on", async () => {
    const { sent, publisher } = setup();
    await publishChanges(publisher(1));
    await publishChanges(publisher(1));
    expect(sent).toEqual([]);
  });

  it("sends a new article's Create once, however many origins look at the same moment", async () => {
    const { source, sent, publisher } = setup();
    await publishChanges(publisher(1));
    source.newest.unshift(view("new"));
    source.listed.add("new");
    await Promise.all([1, 2, 3].map((by) => publishChanges(publisher(by))));
    await publishChanges(publisher(1));
    expect(sent.map(({ type, slug }) => ({ type, slug }))).toEqual([{ type: "Create", slug: "new" }]);
  });

  it("sends an Update when what followers see changes, and nothing when only the body does", async () => {
    const { source, sent, publisher } = setup();
    await publishChanges(publisher(1));
    source.newest[0] = { ...view("a"), bodyHtml: "<p>Another body.</p>" };
    await publishChanges(publisher(1));
    expect(sent).toEqual([]);
    source.newest[0] = view("a", "Other words.");
    await Promise.all([publishChanges(publisher(1)), publishChanges(publisher(2))]);
    expect(sent.map(({ type, slug }) => ({ type, slug }))).toEqual([{ type: "Update", slug: "a" }]);
  });

  it("sends a Delete once for an article the catalogue and the source no longer have, and none while the source still has it", async () => {
    const { source, sent, publisher } = setup();
    await publishChanges(publisher(1));
    source.newest = source.newest.filter((article) => article.slug !== "b");
    source.listed.delete("b");
    await publishChanges(publisher(1));
    expect(sent, "the catalogue dropped it, but the source still answers for it").toEqual([]);
    source.gone.add("b");
    await Promise.all([publishChanges(publisher(1)), publishChanges(publisher(2))]);
    await publishChanges(publisher(1));
    expect(sent.map(({ type, slug }) => ({ type, slug }))).toEqual([{ type: "Delete", slug: "b" }]);
  });

  it("counts the followers once a day, however many origins look", async () => {
    const { publisher, followerCounts } = setup();
    const looks = (day: string) => Promise.all([1, 2, 3].map((by) => countFollowersOnce(publisher(by), day)));
    expect((await looks("2026-11-28")).filter(Boolean)).toHaveLength(1);
    expect((await looks("2026-11-28")).filter(Boolean)).toHaveLength(0);
    expect((await looks("2026-11-29")).filter(Boolean)).toHaveLength(1);
    // Each in the row of the day it was claimed for, whatever the time when it is written.
    expect(followerCounts.map((entry) => entry.slice(0, 10))).toEqual(["2026-11-28", "2026-11-29"]);
  });
});
