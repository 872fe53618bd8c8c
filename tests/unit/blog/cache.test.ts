import { describe, expect, it, vi } from "vitest";
import { createSwrCache } from "~/blog/cache.server";

function setup(options: Pick<Parameters<typeof createSwrCache>[0], "keepFailure"> = {}) {
  let time = 1_000_000;
  const cache = createSwrCache<string>({
    freshMs: 60_000,
    staleWhileRevalidateMs: 300_000,
    staleIfErrorMs: 86_400_000,
    now: () => time,
    ...options,
  });
  return { cache, advance: (ms: number) => (time += ms) };
}

const deferred = () => {
  let resolve!: (value: { value: string }) => void;
  const promise = new Promise<{ value: string }>((done) => (resolve = done));
  return { promise, resolve };
};

describe("stale-while-revalidate cache", () => {
  it("makes one call per key however many readers ask at once", async () => {
    const { cache } = setup();
    const pending = deferred();
    const load = vi.fn(() => pending.promise);
    const readers = Array.from({ length: 100 }, () => cache.get("article:x", load));
    pending.resolve({ value: "v1" });
    expect(await Promise.all(readers)).toEqual(Array(100).fill("v1"));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("serves a fresh copy without calling again", async () => {
    const { cache, advance } = setup();
    const load = vi.fn(async () => ({ value: "v1" }));
    await cache.get("k", load);
    advance(59_000);
    expect(await cache.get("k", load)).toBe("v1");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("serves the stale copy at once after the fresh period and refreshes it in the background", async () => {
    const { cache, advance } = setup();
    await cache.get("k", async () => ({ value: "v1" }));
    advance(120_000);
    const refresh = deferred();
    const load = vi.fn(() => refresh.promise);
    expect(await cache.get("k", load)).toBe("v1");
    expect(await cache.get("k", load)).toBe("v1");
    expect(load).toHaveBeenCalledTimes(1);
    refresh.resolve({ value: "v2" });
    await refresh.promise;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.get("k", load)).toBe("v2");
  });

  it("keeps serving a copy up to a day old while the source fails", async () => {
    const { cache, advance } = setup();
    await cache.get("k", async () => ({ value: "v1" }));
    const failing = vi.fn(async () => {
      throw new Error("backend down");
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    advance(3 * 3_600_000);
    expect(await cache.get("k", failing)).toBe("v1");
    expect(failing).toHaveBeenCalledTimes(1);
    // After a failure the stale copy counts as fresh for one period: the source is not hammered.
    expect(await cache.get("k", failing)).toBe("v1");
    expect(failing).toHaveBeenCalledTimes(1);
    advance(22 * 3_600_000);
    await expect(cache.get("k", failing)).rejects.toThrow("backend down");
    warn.mockRestore();
  });

  it("fails when there is no copy at all, and tries again next time", async () => {
    const { cache } = setup();
    await expect(cache.get("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => ({ value: "back" }))).toBe("back");
  });

  it("keeps keys apart", async () => {
    const { cache } = setup();
    await cache.get("list:a.org:1", async () => ({ value: "a" }));
    expect(await cache.get("list:b.org:1", async () => ({ value: "b" }))).toBe("b");
  });

  it("forgets the entries of the given prefixes only, so their next read calls the source again", async () => {
    const { cache } = setup();
    await cache.get("site1:list:a.org:1", async () => ({ value: "old" }));
    await cache.get("site2:list:a.org:1", async () => ({ value: "kept" }));
    cache.forget(["site1:"]);
    expect(await cache.get("site1:list:a.org:1", async () => ({ value: "new" }))).toBe("new");
    expect(await cache.get("site2:list:a.org:1", async () => ({ value: "called" }))).toBe("kept");
  });
});

describe("failures kept like values (keepFailure)", () => {
  const contentError = new Error("reply did not fit");
  const outage = new Error("timed out");
  const keeping = () => setup({ keepFailure: (error) => error === contentError });

  it("throw the same failure to every reader of the fresh period with one call, then call again", async () => {
    const { cache, advance } = keeping();
    const load = vi.fn(async (): Promise<{ value: string }> => {
      throw contentError;
    });
    for (let reader = 0; reader < 5; reader += 1) await expect(cache.get("article:x", load)).rejects.toBe(contentError);
    expect(load).toHaveBeenCalledTimes(1);
    advance(60_001 + 300_000);
    await expect(cache.get("article:x", load)).rejects.toBe(contentError);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("are not kept for other failures, and never hide a stale copy", async () => {
    const { cache, advance } = keeping();
    const failing = vi.fn(async (): Promise<{ value: string }> => {
      throw outage;
    });
    await expect(cache.get("a", failing)).rejects.toBe(outage);
    await expect(cache.get("a", failing)).rejects.toBe(outage);
    expect(failing).toHaveBeenCalledTimes(2);
    // A good copy, then content that does not fit: the good copy stands in, as for any failure.
    await cache.get("b", async () => ({ value: "good" }));
    advance(60_001 + 300_001);
    expect(await cache.get("b", async () => Promise.reject(contentError))).toBe("good");
  });
});
