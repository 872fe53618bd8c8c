import { setImmediate as nextTurn } from "node:timers/promises";
import { CONVERT_HERE_UP_TO, myanmarToConvert } from "~/i18n/zawgyi.server";
import { readReplyInPool, type ReadReplyText } from "./article-body.server";
import { BlogUnavailableError, type BlogFailure } from "./errors.server";
import { measureReply, REPLY_SHAPE_LIMITS } from "./reply-shape";
import { readReplyText, type ReplyKind, type TextReading } from "./schema.server";
import type { BlogSource } from "./source.server";

type Options = {
  baseUrl: string;
  token: string;
  /** The whole budget for one call, retry included. */
  timeoutMs: number;
  /** Replies larger than this are refused: a runaway backend must not fill the server's memory. */
  maxBytes?: number;
  /** Where a reply of many values is parsed and checked: the worker thread. */
  readInWorker?: ReadReplyText;
};

const RETRY_DELAY_MS = 150;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

type Reply = { status: number; text: string };

/** The hosted backend: GET get_metainfo and get_details with the public bearer credential. */
export function createHttpSource({
  baseUrl,
  token,
  timeoutMs,
  maxBytes = DEFAULT_MAX_BYTES,
  readInWorker = readReplyInPool,
}: Options): BlogSource {
  /**
   * A reply's text parsed and checked (docs/decisions/041): refused unparsed when its shape would hold the
   * thread, in the worker when it holds many values or more Burmese than is converted here from Zawgyi in
   * a few milliseconds (docs/decisions/046), else here, in a turn of the event loop after the one that read
   * and measured it.
   */
  async function read<K extends ReplyKind>(kind: K, text: string): Promise<TextReading<K>> {
    const shape = measureReply(text);
    if (shape.problem) throw new BlogUnavailableError(`reply refused unparsed: ${shape.problem}`, { ofContent: true });
    if (shape.values >= REPLY_SHAPE_LIMITS.inWorkerFrom || myanmarToConvert(text) > CONVERT_HERE_UP_TO)
      return readInWorker(kind, text);
    await nextTurn();
    return readReplyText(kind, text);
  }

  async function call(path: string): Promise<Reply> {
    const url = `${baseUrl}/${path}`;
    const deadline = Date.now() + timeoutMs;
    let lastProblem = "no attempt made";
    let lastKind: BlogFailure = "timeout";
    // One quick retry for a network error or a 5xx, within the same time budget.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const mayRetry = attempt === 0;
      try {
        const response = await fetch(url, {
          headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
          signal: AbortSignal.timeout(remaining),
          redirect: "error",
        });
        if (response.status >= 500 && mayRetry) {
          await response.body?.cancel();
          lastProblem = `answered ${response.status}`;
          lastKind = "http_error";
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          return { status: response.status, text: "" };
        }
        return { status: response.status, text: await readText(response, maxBytes) };
      } catch (error) {
        if (error instanceof BlogUnavailableError) throw error;
        if (isTimeout(error))
          throw new BlogUnavailableError(`${pathName(path)} timed out after ${timeoutMs} ms`, { kind: "timeout" });
        lastProblem = `network error: ${(error as Error).cause ?? (error as Error).message}`;
        lastKind = "refused";
        if (mayRetry) await sleep(RETRY_DELAY_MS);
      }
    }
    throw new BlogUnavailableError(`${pathName(path)} failed: ${lastProblem}`, { kind: lastKind });
  }

  return {
    async listPage(domain, page) {
      const reply = await call(`get_metainfo?domain=${encodeURIComponent(domain)}&page=${page}`);
      if (reply.status !== 200)
        throw new BlogUnavailableError(`Failed to fetch blogs: get_metainfo answered ${reply.status}`, {
          kind: "http_error",
        });
      const parsed = await read("list", reply.text);
      if (!parsed.ok)
        throw new BlogUnavailableError(`Failed to fetch blogs: ${parsed.problem}`, { ofContent: parsed.ofContent });
      // One line per reply, however many entries were left out; the page shows the rest.
      if (parsed.notes.length)
        console.warn(`Blog list ${JSON.stringify(domain)} page ${page}: ${parsed.notes.join("; ")}`);
      return parsed.page;
    },

    async article(slug) {
      const reply = await call(`get_details?slug=${encodeURIComponent(slug)}`);
      if (reply.status === 404) return null;
      if (reply.status !== 200)
        throw new BlogUnavailableError(`Blog not found: get_details answered ${reply.status}`, { kind: "http_error" });
      const parsed = await read("article", reply.text);
      if (!parsed.ok)
        throw new BlogUnavailableError(`Blog not found: ${parsed.problem}`, { ofContent: parsed.ofContent });
      return parsed.article;
    },
  };
}

/** The reply's text, within `maxBytes`. */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new BlogUnavailableError(`reply of ${declared} bytes is over the ${maxBytes} byte limit`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new BlogUnavailableError(`reply is over the ${maxBytes} byte limit`);
      }
      chunks.push(value);
    }
  }
  // TextDecoder drops a leading byte order mark, which some servers write and JSON.parse refuses.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function isTimeout(error: unknown) {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

function pathName(path: string) {
  return path.split("?")[0];
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
