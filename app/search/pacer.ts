/**
 * Spaces calls evenly at `perSecond`, never in a burst: each call waits until 1/perSecond after the one
 * before it started. For one caller at a time (the sync of one site runs its calls one after another).
 */
export function createPacer(perSecond: number, now = () => Date.now(), sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))) {
  const gapMs = perSecond > 0 && Number.isFinite(perSecond) ? 1000 / perSecond : 0;
  let next = 0;
  return async function pace(): Promise<void> {
    const at = now();
    const wait = Math.max(0, next - at);
    next = Math.max(at, next) + gapMs;
    if (wait > 0) await sleep(wait);
  };
}
