/**
 * Remix calls `res.flush()` after every chunk it writes, so that deferred data reaches the browser as it
 * resolves; with compression() each flush ends a compressed block. The site defers nothing (every page
 * renders at once), and the flushes made gzip pages half as large again and cost 10 % more CPU
 * (docs/decisions/012). So the flush goes through only for server-sent events, which need each message
 * sent at once. A route that streams deferred data into a page would need it back.
 * Must come after compression(), which defines `res.flush`.
 * @returns {import("express").RequestHandler}
 */
export function flushEventStreamsOnly() {
  return (_req, res, next) => {
    const flush = res.flush;
    if (typeof flush === "function") {
      res.flush = () => {
        if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) flush.call(res);
      };
    }
    next();
  };
}
