import { describe, expect, it } from "vitest";
import { flushEventStreamsOnly } from "../../server/flush-event-streams-only.mjs";

// server/flush-event-streams-only.mjs: Remix's flush after every chunk reaches the compressor only for
// server-sent events.

function response(contentType: string) {
  let flushes = 0;
  const res = {
    flush: () => (flushes += 1),
    getHeader: (name: string) => (name === "content-type" ? contentType : undefined),
  };
  flushEventStreamsOnly()({} as never, res as never, () => {});
  return { res, flushes: () => flushes };
}

describe("flushing", () => {
  it("does not flush a page or a data response after each chunk", () => {
    for (const type of ["text/html; charset=utf-8", "text/x-script", "application/json"]) {
      const { res, flushes } = response(type);
      res.flush();
      res.flush();
      expect(flushes(), type).toBe(0);
    }
  });

  it("still flushes server-sent events", () => {
    const { res, flushes } = response("text/event-stream");
    res.flush();
    expect(flushes()).toBe(1);
  });
});
