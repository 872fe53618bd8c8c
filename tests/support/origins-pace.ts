// Three origins syncing three sites of one backend, as separate processes would (each with its own handles
// and its own pacer for the backend, app/search/catalogues.server.ts), for the tests of one pace per backend.
import { expect } from "vitest";
import { createHttpSource } from "~/blog/http-source.server";
import type { BlogSource } from "~/blog/source.server";
import type { Catalogue } from "~/search/catalogue";
import { startSync } from "~/search/sync.server";
import { FAKE_TOKEN, makeArticles, startFakeBackend } from "./fake-backend.mjs";

type Origin = { open: (name: string) => Catalogue; pace: () => Promise<void> };

async function until(condition: () => Promise<boolean>, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Each origin takes one site's lease first, then every origin runs every site's sync, as each would; answers
 * the most backend calls that started in any second and the number of calls.
 */
export async function busiestSecond(perSecond: number, makeOrigin: (backendUrl: string) => Origin, articles = 12) {
  const backend = await startFakeBackend({ content: makeArticles(articles) });
  const stops: (() => Promise<void>)[] = [];
  const starts: number[] = [];
  try {
    const origins = [0, 1, 2].map(() => makeOrigin(backend.url));
    const sites = ["a", "b", "c"].map((site) => `pace-${site}-${Date.now()}`);
    const start = (origin: Origin, name: string) => {
      const catalogue = origin.open(name);
      const http = createHttpSource({ baseUrl: backend.url, token: FAKE_TOKEN, timeoutMs: 2000 });
      // When each call starts: what the pace is about. Arrivals at the backend, in this one busy process, add
      // the jitter of its event loop, which separate machines would not share. A call starts a moment after its
      // turn was taken: a machine too busy to run it at once may shift one call into the next second's count.
      const source: BlogSource = {
        listPage: (domain, page) => (starts.push(Date.now()), http.listPage(domain, page)),
        article: (slug) => (starts.push(Date.now()), http.article(slug)),
      };
      const sync = startSync({
        catalogue,
        source,
        domain: `${name}.example.org`,
        callsPerSecond: perSecond,
        pace: origin.pace,
        freshMs: 60_000,
        sweepMs: 3_600_000,
        label: name,
      });
      stops.push(sync.stop);
      return catalogue;
    };
    const first = sites.map((name, index) => start(origins[index]!, name));
    await until(
      async () => (await Promise.all(first.map((catalogue) => catalogue.count()))).every((count) => count.articles > 0),
      10_000,
    );
    for (const [index, origin] of origins.entries())
      for (const [other, name] of sites.entries()) if (other !== index) start(origin, name);
    await until(
      async () =>
        (await Promise.all(first.map((catalogue) => catalogue.count()))).every((count) => count.withBody === articles),
      20_000,
    );
    expect(backend.calls()).toHaveLength(starts.length);
    return {
      calls: starts.length,
      busiest: Math.max(...starts.map((at) => starts.filter((other) => other >= at && other < at + 1000).length)),
    };
  } finally {
    await Promise.all(stops.map((stop) => stop()));
    await backend.close();
  }
}
