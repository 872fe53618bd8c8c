import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPacer } from "~/search/pacer";

/** A clock that only moves when a call sleeps; each sleep ends `late()` ms after it was due, as timers do. */
function fakeTime(late: () => number) {
  let time = 0;
  return {
    now: () => time,
    sleep: async (ms: number) => {
      time += ms + late();
    },
  };
}

describe("the sync's pacer", () => {
  it("never lets one second hold more calls than the setting, however late timers fire and however many callers share it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 50 }),
        async (perSecond, callers, lateness) => {
          let index = 0;
          const clock = fakeTime(() => lateness[index++ % lateness.length]!);
          const pace = createPacer(perSecond, clock.now, clock.sleep);
          const starts: number[] = [];
          const calls = Math.min(3 * perSecond, 600);
          await Promise.all(
            Array.from({ length: callers }, async () => {
              for (let call = 0; call < calls / callers; call++) {
                await pace();
                starts.push(clock.now());
              }
            }),
          );
          starts.sort((a, b) => a - b);
          // Every window of one second, starting at any call.
          for (let first = 0, last = 0; first < starts.length; first++) {
            while (last < starts.length && starts[last]! - starts[first]! < 1000) last++;
            expect(last - first).toBeLessThanOrEqual(perSecond);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps the pace across processes that take turns from one schedule, however late their timers fire", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 50 }),
        async (perSecond, processes, lateness) => {
          let index = 0;
          const clock = fakeTime(() => lateness[index++ % lateness.length]!);
          // The shared turn, as the catalogue database keeps it (app/search/backend-pace.server.ts). A call starts
          // when its turn is taken: the other processes' sleeps move this clock before the caller would see it.
          const starts: number[] = [];
          let nextAt = -Infinity;
          const take = async (gapMs: number) => {
            if (clock.now() < nextAt) return nextAt - clock.now();
            nextAt = clock.now() + gapMs;
            starts.push(clock.now());
            return 0;
          };
          let taken = 0;
          const calls = Math.min(3 * perSecond, 600);
          await Promise.all(
            Array.from({ length: processes }, async () => {
              const pace = createPacer(perSecond, clock.now, clock.sleep, take);
              for (let call = 0; call < calls / processes; call++) {
                await pace();
                taken++;
              }
            }),
          );
          // Each call took one turn: none went ahead without.
          expect(starts).toHaveLength(taken);
          for (let first = 0, last = 0; first < starts.length; first++) {
            while (last < starts.length && starts[last]! - starts[first]! < 1000) last++;
            expect(last - first).toBeLessThanOrEqual(perSecond);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it("keeps the pace it is given when timers are on time", async () => {
    const clock = fakeTime(() => 0);
    const pace = createPacer(5, clock.now, clock.sleep);
    for (let call = 0; call < 50; call++) await pace();
    // 50 calls at 5 a second: about 10 seconds, a hair more (the 1 % margin), never less.
    expect(clock.now()).toBeGreaterThanOrEqual(9_800);
    expect(clock.now()).toBeLessThanOrEqual(10_000);
  });

  it("does not wait when the setting is off", async () => {
    const clock = fakeTime(() => 0);
    const pace = createPacer(0, clock.now, clock.sleep);
    for (let call = 0; call < 10; call++) await pace();
    expect(clock.now()).toBe(0);
  });
});
