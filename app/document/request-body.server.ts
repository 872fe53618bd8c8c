import type { IncomingMessage } from "node:http";

/** The body, if it is whole within `limit` bytes and `timeoutMs`. */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number) {
  return new Promise<Buffer | "too_large" | "too_slow" | "aborted">((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (result: Buffer | "too_large" | "too_slow" | "aborted") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return done("too_large");
      chunks.push(chunk);
    };
    const timer = setTimeout(() => done("too_slow"), timeoutMs);
    req.on("data", onData);
    req.once("end", () => done(Buffer.concat(chunks)));
    req.once("error", () => done("aborted"));
    req.once("close", () => done(req.complete ? Buffer.concat(chunks) : "aborted"));
  });
}
