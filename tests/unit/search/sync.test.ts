import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createHttpSource } from "~/blog/http-source.server";
import type { Catalogue } from "~/search/catalogue";
import { openSqliteCatalogue } from "~/search/sqlite-catalogue.server";
import { createBackendPacer } from "~/search/backend-pace.server";
import { refreshCycleMs, REFRESH_SHARE, startSync } from "~/search/sync.server";
import { FAKE_TOKEN, makeArticle, makeArticles, startFakeBackend } from "../../support/fake-backend.mjs";
import { busiestSecond } from "../../support/origins-pace";

const dir = mkdtempSync(path.join(tmpdir(), "sync-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Backend = Awaited<ReturnType<typeof startFakeBackend>>;
const running: { stop: () => Promise<void> }[] = [];
const opened: Catalogue[] = [];
const backends: Backend[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sync) => sync.stop()));
  for (const catalogue of opened.splice(0)) catalogue.close();
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
});

async function backendWith(content: ReturnType<typeof makeArticles>) {
  const backend = await startFakeBackend({ content });
  backends.push(backend);
  return backend;
}

function sync(
  backend: Backend,
  file: string,
  options: { callsPerSecond?: number; freshMs?: number; sweepMs?: number } = {},
) {
  const catalogue = openSqliteCatalogue(file);
  opened.push(catalogue);
  const source = createHttpSource({ baseUrl: backend.url, token: FAKE_TOKEN, timeoutMs: 2000 });
  running.push(
    startSync({
      catalogue,
      source,
      domain: "zen.example.org",
      callsPerSecond: 20,
      freshMs: 60_000,
      sweepMs: 3_600_000,
      label: "test",
      ...options,
    }),
  );
  return catalogue;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const details = (backend: Backend) => backend.calls().filter((call) => call.path === "/get_details");
const lists = (backend: Backend) => backend.calls().filter((call) => call.path === "/get_metainfo");

describe("the catalogue's sync", () => {
  it("takes the list first, then every body, one call at a time at the set rate", async () => {
    const backend = await backendWith(makeArticles(25));
    const catalogue = sync(backend, path.join(dir, "rate.sqlite"), { callsPerSecond: 20 });
    await until(async () => (await catalogue.count()).withBody === 25);
    const calls = backend.calls();
    expect(calls.slice(0, 3).map((call) => call.path)).toEqual(["/get_metainfo", "/get_metainfo", "/get_metainfo"]);
    expect(details(backend)).toHaveLength(25);
    // Never a burst: no second holds more than 20 calls (one more for the network's jitter), and the
    // calls are spread out rather than bunched.
    for (const call of calls)
      expect(calls.filter((other) => other.at >= call.at && other.at < call.at + 1000).length).toBeLessThanOrEqual(21);
    const gaps = calls
      .slice(1)
      .map((call, index) => call.at - calls[index]!.at)
      .sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(45);
    expect((await catalogue.search("Backend Article 17", 1, 10)).hits[0]!.slug).toBe("backend-article-17");
  });

  it("fetches no body again after a restart, and reads only the first list page", async () => {
    const backend = await backendWith(makeArticles(25));
    const file = path.join(dir, "restart.sqlite");
    const first = sync(backend, file);
    await until(async () => (await first.count()).withBody === 25);
    await running.pop()!.stop();
    backend.reset();
    const second = sync(backend, file, { freshMs: 200 });
    await until(async () => lists(backend).length >= 2);
    expect(details(backend)).toHaveLength(0);
    expect(lists(backend).map((call) => call.query.page)).toEqual(["1", "1"]);
    expect((await second.count()).withBody).toBe(25);
  });

  it("finds a new article at the next fresh period, fetching its body alone", async () => {
    const content = makeArticles(25);
    const backend = await backendWith(content);
    const catalogue = sync(backend, path.join(dir, "new.sqlite"), { freshMs: 300 });
    await until(async () => (await catalogue.count()).withBody === 25);
    backend.reset();
    content.unshift({ ...makeArticle(26), slug: "a-new-article", metaTitle: "Freshly published: the kinhin bell" });
    await until(async () => (await catalogue.search("kinhin bell", 1, 10)).total === 1, 3000);
    await until(async () => details(backend).length === 1);
    expect(details(backend).map((call) => call.query.slug)).toEqual(["a-new-article"]);
  });

  it("finds a body changed at the backend while its list entry was not, within one round of re-reads, at a tenth of the pace", async () => {
    const content = makeArticles(10);
    const backend = await backendWith(content);
    // Each body once a sweep (500 ms), but at most a tenth of 100 calls a second: one round in 1 s. No head check meanwhile.
    const timing = { callsPerSecond: 100, sweepMs: 500, freshMs: 60_000 };
    const bound = refreshCycleMs(10, timing.sweepMs, timing.callsPerSecond);
    expect(bound).toBe(1000);
    const catalogue = sync(backend, path.join(dir, "changed-body.sqlite"), timing);
    await until(async () => (await catalogue.count()).withBody === 10);
    backend.reset();
    content[6] = { ...content[6]!, blog: "The lotus pond at dusk, and the frogs that sit by it." };
    const changed = Date.now();
    await until(async () => (await catalogue.search("lotus pond frogs", 1, 10)).total === 1, bound + 1000);
    expect(Date.now() - changed).toBeLessThanOrEqual(bound + 500);
    expect((await catalogue.search("lotus pond frogs", 1, 10)).hits[0]!.slug).toBe("backend-article-7");
    // The list was not read again: the body was found by the re-reads alone, and they kept to their share.
    await new Promise((resolve) => setTimeout(resolve, bound - (Date.now() - changed) + 200));
    expect(lists(backend)).toHaveLength(0);
    const calls = backend.calls().map((call) => call.at);
    for (const at of calls)
      expect(calls.filter((other) => other >= at && other < at + 1000).length).toBeLessThanOrEqual(
        timing.callsPerSecond * REFRESH_SHARE + 1,
      );
    expect(new Set(details(backend).map((call) => call.query.slug)).size).toBe(10);
  });

  it("keeps the catalogue as it was while the backend fails, and finds deleted articles in the sweep", async () => {
    const content = makeArticles(12);
    const backend = await backendWith(content);
    const catalogue = sync(backend, path.join(dir, "outage.sqlite"), { freshMs: 150, sweepMs: 150 });
    await until(async () => (await catalogue.count()).withBody === 12);
    backend.state.listStatus = 500;
    backend.state.detailsStatus = 500;
    backend.reset();
    await until(async () => lists(backend).length >= 3);
    expect(await catalogue.count()).toEqual({ articles: 12, withBody: 12 });
    expect((await catalogue.search("backend", 1, 10)).total).toBe(12);
    backend.state.listStatus = 200;
    backend.state.detailsStatus = 200;
    content.splice(3, 1);
    await until(async () => (await catalogue.count()).articles === 11);
    expect(await catalogue.slugs()).not.toContain("backend-article-4");
  });

  it("leaves an article whose reply does not fit for later, and goes on with the others", async () => {
    const content = makeArticles(8);
    content[2] = { ...content[2]!, slug: "fault-wrong-types" };
    content[5] = { ...content[5]!, slug: "fault-500" };
    const backend = await backendWith(content);
    const catalogue = sync(backend, path.join(dir, "faults.sqlite"));
    await until(async () => (await catalogue.count()).withBody === 6);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await catalogue.count()).toEqual({ articles: 8, withBody: 6 });
    expect(await catalogue.missingBodies(10)).toEqual([]);
    // Still found by its title, from the list.
    expect((await catalogue.search("Backend Article 3", 1, 10)).hits[0]?.slug).toBe("fault-wrong-types");
  });

  it("keeps three processes of one machine to one pace per backend, whichever process holds each site's lease", async () => {
    const perSecond = 20;
    const shared = mkdtempSync(path.join(dir, "paces-"));
    const { calls, busiest } = await busiestSecond(perSecond, (backendUrl) => ({
      open: (name) => openSqliteCatalogue(path.join(shared, `${name}.sqlite`)),
      pace: createBackendPacer(backendUrl, perSecond, { dir: shared }),
    }));
    expect(calls).toBe(3 * (2 + 12));
    // The turns hold exactly (tests/unit/search/pacer.test.ts); the starts, within one call of a busy machine's jitter.
    expect(busiest).toBeLessThanOrEqual(perSecond + 1);
  });

  it("lets one process sync a catalogue at a time", async () => {
    const backend = await backendWith(makeArticles(5));
    const file = path.join(dir, "lease.sqlite");
    const one = sync(backend, file);
    sync(backend, file);
    await until(async () => (await one.count()).withBody === 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(details(backend)).toHaveLength(5);
    expect(lists(backend)).toHaveLength(1);
  });
});
