import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { proseOf, spacedWords } from "./reading-time";
import { BlogUnavailableError } from "./errors.server";
import type { ReplyKind, TextReading } from "./schema.server";
import { allPlain, MARKDOWN_LIMITS, planBody, plainHtml, type BodyPlan, type MarkdownLimits } from "./markdown-limits";

/**
 * An article body as the page shows it, made so that no body, whatever its size or shape, can hold up the
 * server (docs/decisions/029): a linear check cuts it to what the markdown parser can take (markdown-limits.ts),
 * and the markdown is rendered in a worker thread with a time and a memory limit, so a shape the check does
 * not foresee costs that worker, not the process. A render that fails or runs out of time leaves the body
 * as plain text. Callers cache the result like any other answer.
 */
export type ArticleBody = {
  html: string;
  /** Words in the body, for the reading time (of what is shown). */
  words: number;
  /** Part or all of the body is plain text, as it was too large or too complex to render; `cut`: some is left out. */
  shortened?: { cut: boolean };
};

/** How long one render may work. A long ordinary article takes well under a second. */
const RENDER_TIME_LIMIT_MS = 5_000;
/** How long a render may wait for a worker: past it the server is overloaded, and the page says try again later. */
const QUEUE_TIME_LIMIT_MS = 20_000;

type RenderOptions = {
  /** The worker module (build/markdown-worker.js). */
  filename: string;
  timeLimitMs?: number;
  queueLimitMs?: number;
  /** What one worker may use: a hostile body runs the worker out of memory long before the process. */
  resourceLimits?: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number; stackSizeMb: number };
};

/**
 * Markdown to HTML, with the words of it and of `plain` (the part of the body shown as plain text): counting
 * words of scripts without spaces takes a dictionary and about a millisecond per thousand characters, so
 * it is done off the thread that answers requests too.
 */
export type RenderMarkdown = (markdown: string, plain?: string) => Promise<{ html: string; words: number }>;

class Overloaded extends Error {}

/**
 * Markdown rendered by a pool of worker threads, each render within `timeLimitMs` of its start (a worker
 * that runs past it is ended, and replaced). Rejects with BlogUnavailableError when no worker is free
 * within `queueLimitMs` or too many renders wait.
 */
export function createMarkdownRenderer({
  filename,
  timeLimitMs = RENDER_TIME_LIMIT_MS,
  queueLimitMs = QUEUE_TIME_LIMIT_MS,
  resourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
}: RenderOptions) {
  const pool = new Piscina({
    filename,
    // One thread beside the one answering requests: a second doubled the worker's memory under a crawl of
    // cold articles (docs/decisions/029), and no body within the check's limits keeps one long.
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: 60_000,
    maxQueue: 256,
    resourceLimits,
    // Renders yield the cores to the threads that answer requests.
    niceIncrement: 5,
  }).on("error", (error: unknown) => console.error("Markdown render worker:", error));

  /** One task of the worker's (`name`: its export), timed from its start; `what` names it in errors. */
  async function run<T>(name: string, task: object, what: string): Promise<T> {
    const abort = new AbortController();
    const { port1: started, port2 } = new MessageChannel();
    let timer = setTimeout(
      () => abort.abort(new Overloaded(`no render worker free within ${queueLimitMs} ms`)),
      queueLimitMs,
    );
    started.once("message", () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error(`the ${what} took longer than ${timeLimitMs} ms`)), timeLimitMs);
    });
    try {
      return (await pool.run({ ...task, started: port2 }, { name, transferList: [port2], signal: abort.signal })) as T;
    } catch (error) {
      const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
      if (reason instanceof Overloaded || (reason instanceof Error && reason.message === "Task queue is at limit")) {
        throw new BlogUnavailableError(`${what} not done: ${reason.message}`, { cause: reason });
      }
      throw reason;
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }
  const render: RenderMarkdown = (markdown, plain = "") => run("default", { markdown, plain }, "render");
  const readReply: ReadReplyText = async (kind, text) => {
    try {
      return await run("readReply", { kind, text }, "reading of the reply");
    } catch (error) {
      if (error instanceof BlogUnavailableError) throw error;
      // A worker that ran out of time or memory on a reply: that reply's problem.
      return {
        ok: false,
        problem: `reply not read: ${error instanceof Error ? error.message : String(error)}`,
        ofContent: true,
      };
    }
  };
  return { render, readReply, close: () => pool.close({ force: true }) };
}

/** A backend reply's text parsed and checked off this thread, for replies of many values (reply-shape.ts). */
export type ReadReplyText = <K extends ReplyKind>(kind: K, text: string) => Promise<TextReading<K>>;

let renderer: ReturnType<typeof createMarkdownRenderer> | undefined;

/** The process's worker pool, started at the first task (so that importing this module starts no thread). */
const pool = () =>
  (renderer ??= createMarkdownRenderer({ filename: new URL("./markdown-worker.js", import.meta.url).href }));
const renderInPool: RenderMarkdown = (markdown, plain) => pool().render(markdown, plain);
export const readReplyInPool: ReadReplyText = (kind, text) => pool().readReply(kind, text);

/**
 * What a body may add to its page, in bytes (docs/decisions/041): the page carries its HTML twice, once as
 * HTML and once in the JSON its scripts read, where `& < >` are written as six characters each. A long real
 * article (10,000 words) adds about 160 KB; with this, an article page stays under 1 MB whatever its body.
 */
export const BODY_PAGE_BYTES = 512 * 1024;
/** Renders with smaller limits tried when a body's HTML is over BODY_PAGE_BYTES, before it is shown as little plain text. */
const SHRINK_TRIES = 3;

/**
 * The body of an article as HTML, within BODY_PAGE_BYTES: a body whose HTML is larger (markup or quotes
 * that HTML writes several times longer) is planned again with limits in proportion, and shown shorter.
 * Throws BlogUnavailableError only when the server is too busy to render it (the page then says to try
 * again later, and is not kept).
 */
export async function renderArticleBody(
  markdown: string,
  render: RenderMarkdown = renderInPool,
  limits: MarkdownLimits = MARKDOWN_LIMITS,
): Promise<ArticleBody> {
  let plan = planBody(markdown, limits);
  let body = await renderPlan(markdown, plan, render);
  for (let tries = 0; tries < SHRINK_TRIES; tries += 1) {
    const bytes = pageBytesOf(body.html);
    if (bytes <= BODY_PAGE_BYTES) return body;
    const share = (BODY_PAGE_BYTES / bytes) * 0.9;
    limits = {
      ...limits,
      maxFormattedChars: Math.floor(plan.formatted.length * share),
      maxPlainChars: Math.floor(plan.plain.length * share),
    };
    plan = planBody(markdown, limits);
    body = await renderPlan(markdown, plan, render);
  }
  if (pageBytesOf(body.html) <= BODY_PAGE_BYTES) return body;
  // Past every try: as much plain text as surely fits (each character written at most 25 bytes in all).
  return renderPlan(
    markdown,
    allPlain(markdown, { ...limits, maxPlainChars: Math.floor(BODY_PAGE_BYTES / 25) }),
    render,
  );
}

async function renderPlan(markdown: string, plan: BodyPlan, render: RenderMarkdown): Promise<ArticleBody> {
  if (!plan.formatted.trim() && !plan.plain.trim()) return { html: "", words: 0 };
  try {
    const formatted = plan.formatted.trim() ? plan.formatted : "";
    const { html, words } = await render(formatted, plan.plain);
    if (!plan.plain && !plan.cut) return { html, words };
    const rest = plainHtml(plan.plain, plan.cut);
    return { html: html ? `${html}\n${rest}` : rest, words, shortened: { cut: plan.cut } };
  } catch (error) {
    if (error instanceof BlogUnavailableError) throw error;
    console.warn(`An article body is shown as plain text: ${error instanceof Error ? error.message : String(error)}`);
    return plainBody(allPlain(markdown));
  }
}

/**
 * A body shown all as plain text when the worker failed: its prose's words counted on this thread between
 * spaces only (the same for scripts with spaces; a run of one without counts once).
 */
function plainBody({ plain, cut }: BodyPlan): ArticleBody {
  return { html: plainHtml(plain, cut), words: spacedWords(proseOf(plain)), shortened: { cut } };
}

/**
 * The bytes `html` adds to its page: its UTF-8 bytes as HTML, and its copy in the loaders' data, which is
 * JSON (Remix's turbo-stream) inside a JSON string (app/entry.server.tsx) inside a script, where `& < >`
 * become \u escapes: a quote or a backslash is written four times there, a line end three times.
 */
export function pageBytesOf(html: string): number {
  let bytes = 0;
  for (let index = 0; index < html.length; index += 1) {
    const code = html.charCodeAt(index);
    if (code === 0x3c || code === 0x3e || code === 0x26) bytes += 7;
    else if (code === 0x22 || code === 0x5c) bytes += 5;
    else if (code === 0x0a || code === 0x0d || code === 0x09 || code === 0x08 || code === 0x0c) bytes += 4;
    else if (code < 0x20) bytes += 8;
    else if (code < 0x80) bytes += 2;
    else if (code < 0x800) bytes += 4;
    else if (code === 0x2028 || code === 0x2029) bytes += 9;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(html.charCodeAt(index + 1))) {
      bytes += 8;
      index += 1;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 10;
    else bytes += 6;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
