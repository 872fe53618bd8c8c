import type { MessagePort } from "node:worker_threads";
import { markdownWords } from "./reading-time";
import { renderMarkdown } from "./markdown.server";
import { readReplyText, type ReplyKind } from "./schema.server";

/**
 * The render worker (built to build/markdown-worker.js, run by the pool in article-body.server.ts): one
 * article body's markdown to HTML, and its words for the reading time with those of the part shown as
 * plain text. It says when it starts, so that the pool's time limit counts the work and not the wait in
 * the queue.
 */
export default function renderInWorker({
  markdown,
  plain = "",
  started,
}: {
  markdown: string;
  plain?: string;
  started: MessagePort;
}) {
  started.postMessage("started");
  started.close();
  return {
    html: markdown ? renderMarkdown(markdown) : "",
    words: markdownWords(markdown) + (plain ? markdownWords(plain) : 0),
  };
}

/** A backend reply of many values parsed and checked here, off the thread that answers requests (reply-shape.ts). */
export function readReply({ kind, text, started }: { kind: ReplyKind; text: string; started: MessagePort }) {
  started.postMessage("started");
  started.close();
  return readReplyText(kind, text);
}
