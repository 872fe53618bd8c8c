// How many cases a property generates when each case is a request to a running server. The main Node's run
// generates them all; where CI runs the unit and server tests again on another Node (.ci/other-node), the
// question is that Node, not the space of inputs, which the main run explores in the same CI: there
// SERVER_RUNS_SCALE (a share between 0 and 1) cuts them, to no fewer than 50 (docs/decisions/043).
const scale = Number(process.env.SERVER_RUNS_SCALE ?? "1");

/** `full` on the main Node; its share under SERVER_RUNS_SCALE, at least 50 (or `full` when smaller). */
export function serverRuns(full) {
  if (!(scale > 0 && scale < 1)) return full;
  return Math.min(full, Math.max(50, Math.ceil(full * scale)));
}
