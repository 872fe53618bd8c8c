import { EventEmitter } from "node:events";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { requestLog } from "../../server/request-log.mjs";

// The server's request log (server/request-log.mjs): one line per request, written in batches.

function exchange(method: string, url: string, answer: { status?: number; length?: number }) {
  const req = { method, originalUrl: url };
  const res = Object.assign(new EventEmitter(), {
    headersSent: answer.status !== undefined,
    statusCode: answer.status ?? 200,
    getHeader: (name: string) => (name === "content-length" ? answer.length : undefined),
  });
  return { req, res };
}

function logger() {
  const writes: string[] = [];
  const middleware = requestLog({ write: (text: string) => writes.push(text) });
  const serve = (method: string, url: string, answer: { status?: number; length?: number }) => {
    const { req, res } = exchange(method, url, answer);
    let passedOn = false;
    middleware(req, res, () => (passedOn = true));
    expect(passedOn).toBe(true);
    return () => res.emit("close");
  };
  return { writes, serve };
}

describe("the request log", () => {
  it("writes method, address, status, bytes and time, once the response is over", async () => {
    const { writes, serve } = logger();
    const finish = serve("GET", "/blog?page=2", { status: 200, length: 24890 });
    await nextTurn();
    expect(writes).toEqual([]);
    finish();
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^GET \/blog\?page=2 200 24890 - \d+\.\d{3} ms\n$/);
  });

  it("shows - for an answer without a length and for a client that left before any answer", async () => {
    const { writes, serve } = logger();
    serve("GET", "/", { status: 404 })();
    serve("GET", "/slow", {})();
    await nextTurn();
    expect(writes.join("")).toMatch(/^GET \/ 404 - - [\d.]+ ms\nGET \/slow - - - [\d.]+ ms\n$/);
  });

  it("writes the lines of one turn of the event loop at once, in order", async () => {
    const { writes, serve } = logger();
    const finishers = ["/a", "/b", "/c"].map((url) => serve("HEAD", url, { status: 200, length: 0 }));
    for (const finish of finishers) finish();
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter(Boolean).map((line) => line.split(" ")[1])).toEqual(["/a", "/b", "/c"]);
    serve("GET", "/d", { status: 200, length: 1 })();
    await nextTurn();
    expect(writes).toHaveLength(2);
  });

  it("adds no exit listener per log, however many are made", () => {
    const before = process.listenerCount("exit");
    for (let n = 0; n < 20; n++) requestLog({ write: () => {} });
    expect(process.listenerCount("exit")).toBe(before);
  });
});
