/**
 * Spaces calls at `perSecond`, never in a burst, for any number of callers (the sites of one backend share
 * a pacer). Each call starts at least one gap after the previous call really started: a timer that fires
 * late delays the calls after it rather than bunching them up. The gap is 1 % longer than
 * 1/perSecond, so that no second, however it is cut, holds more calls than the setting (timers and clocks
 * count in whole milliseconds).
 */
export function createPacer(perSecond: number, now = () => Date.now(), sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))) {
  const gapMs = perSecond > 0 && Number.isFinite(perSecond) ? (1000 / perSecond) * 1.01 : 0;
  let previous = -Infinity;
  let queue: Promise<void> = Promise.resolve();
  return function pace(): Promise<void> {
    const turn = queue.then(async () => {
      const wait = previous + gapMs - now();
      if (wait > 0) await sleep(wait);
      previous = now();
    });
    queue = turn;
    return turn;
  };
}
