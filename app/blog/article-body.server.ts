import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { markdownWords } from "./reading-time";
import { BlogUnavailableError } from "./errors.server";
import { allPlain, planBody, plainHtml, type BodyPlan } from "./markdown-limits";

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

export type RenderMarkdown = (markdown: string) => Promise<{ html: string; words: number }>;

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

  const render: RenderMarkdown = async (markdown) => {
    const abort = new AbortController();
    const { port1: started, port2 } = new MessageChannel();
    let timer = setTimeout(() => abort.abort(new Overloaded(`no render worker free within ${queueLimitMs} ms`)), queueLimitMs);
    started.once("message", () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new Error(`the render took longer than ${timeLimitMs} ms`)), timeLimitMs);
    });
    try {
      return await pool.run({ markdown, started: port2 }, { transferList: [port2], signal: abort.signal });
    } catch (error) {
      const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
      if (reason instanceof Overloaded || (reason instanceof Error && reason.message === "Task queue is at limit")) {
        throw new BlogUnavailableError(`article body not rendered: ${reason.message}`, { cause: reason });
      }
      throw reason;
    } finally {
      clearTimeout(timer);
      started.close();
    }
  };
  return { render, close: () => pool.close({ force: true }) };
}

let renderer: ReturnType<typeof createMarkdownRenderer> | undefined;

/** The process's renderer, started at the first render (so that importing this module starts no thread). */
const renderInPool: RenderMarkdown = (markdown) =>
  (renderer ??= createMarkdownRenderer({ filename: new URL("./markdown-worker.js", import.meta.url).href })).render(markdown);

/**
 * The body of an article as HTML. Throws BlogUnavailableError only when the server is too busy to render it
 * (the page then says to try again later, and is not kept).
 */
export async function renderArticleBody(markdown: string, render: RenderMarkdown = renderInPool): Promise<ArticleBody> {
  const plan = planBody(markdown);
  if (!plan.formatted.trim()) return plan.plain.trim() ? plainBody(plan) : { html: "", words: 0 };
  try {
    const formatted = await render(plan.formatted);
    if (!plan.plain && !plan.cut) return formatted;
    const rest = plainBody(plan);
    return { html: `${formatted.html}\n${rest.html}`, words: formatted.words + rest.words, shortened: rest.shortened };
  } catch (error) {
    if (error instanceof BlogUnavailableError) throw error;
    console.warn(`An article body is shown as plain text: ${error instanceof Error ? error.message : String(error)}`);
    return plainBody(allPlain(markdown));
  }
}

function plainBody({ plain, cut }: BodyPlan): ArticleBody {
  return { html: plainHtml(plain, cut), words: markdownWords(plain), shortened: { cut } };
}
