/**
 * Spaces calls at `perSecond`, never in a burst, for any number of callers (the sites of one backend share
 * a pacer). Each call starts at least one gap after the previous call really started: a timer that fires
 * late delays the calls after it rather than bunching them up. The gap is 1 % longer than
 * 1/perSecond, so that no second, however it is cut, holds more calls than the setting (timers and clocks
 * count in whole milliseconds).
 *
 * With `take`, the gaps are kept with other processes too: it takes the turn they share when it is free
 * (app/search/backend-pace.server.ts), answering 0, or else how long until it may be; the call starts as
 * soon as the turn is taken, so a late timer delays the next turn rather than shortening a gap. The callers
 * of this process still ask one at a time.
 */
export function createPacer(
  perSecond: number,
  now = () => Date.now(),
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  take?: (gapMs: number) => Promise<number>,
) {
  const gapMs = perSecond > 0 && Number.isFinite(perSecond) ? (1000 / perSecond) * 1.01 : 0;
  let previous = -Infinity;
  let queue: Promise<void> = Promise.resolve();
  return function pace(): Promise<void> {
    const turn = queue.then(async () => {
      if (take && gapMs > 0) {
        for (let wait = await take(gapMs); wait > 0; wait = await take(gapMs)) await sleep(wait);
        return;
      }
      const wait = previous + gapMs - now();
      if (wait > 0) await sleep(wait);
      previous = now();
    });
    // A turn that could not be asked for (its database away) fails this call alone: the callers after it still get their turns.
    queue = turn.catch(() => {});
    return turn;
  };
}
