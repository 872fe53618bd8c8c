/**
 * One line per request on standard output, as remix-serve writes with morgan's "tiny" format:
 * `GET /blog 200 24890 - 3.412 ms`: method, address, status, body bytes, and milliseconds until the
 * response ended or the connection closed (morgan stopped its clock at the headers). A status of `-`
 * means the client went away before any answer.
 *
 * Written here rather than with morgan: under load morgan cost about 300 000 CPU instructions per
 * request, some 30 % of serving a cached page, and the lines of one turn of the event loop go out in
 * one write, since writes to a pipe or file are synchronous in Node (docs/decisions/012).
 * @param {{ write: (text: string) => unknown }} [out]
 * @returns {import("express").RequestHandler}
 */
export function requestLog(out = process.stdout) {
  const log = batchedLines(out);
  return (req, res, next) => {
    const start = performance.now();
    res.once("close", () => {
      const status = res.headersSent ? res.statusCode : "-";
      const bytes = res.getHeader("content-length") ?? "-";
      log(`${req.method} ${req.originalUrl} ${status} ${bytes} - ${(performance.now() - start).toFixed(3)} ms\n`);
    });
    next();
  };
}

/** What each log still has to write when the process exits: one exit listener for all of them. */
const flushers = new Set();
process.on("exit", () => flushers.forEach((flush) => flush()));

/** A function that queues a line; the queue is written once per turn of the event loop, and at exit. */
function batchedLines(out) {
  let pending = "";
  const flush = () => {
    flushers.delete(flush);
    if (!pending) return;
    const text = pending;
    pending = "";
    out.write(text);
  };
  return (line) => {
    if (!pending) {
      setImmediate(flush);
      flushers.add(flush);
    }
    pending += line;
  };
}
