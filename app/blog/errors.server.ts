import type { BackendOutcome } from "~/metrics/record.server";

/** What went wrong, for the metrics: the backend answered with an error status, too late, nonsense, or not at all. */
export type BlogFailure = Exclude<BackendOutcome, "ok">;

/** The blog's source could not give an answer (network, timeout, bad status, a reply that does not fit). */
export class BlogUnavailableError extends Error {
  readonly kind: BlogFailure;
  /**
   * The reply came and was read, and what it holds does not fit (or would cost too much to read): asking
   * again gives the same until the content changes, unlike a timeout or an error status.
   */
  readonly ofContent: boolean;
  constructor(reason: string, options?: { cause?: unknown; kind?: BlogFailure; ofContent?: boolean }) {
    super(reason, options);
    this.name = "BlogUnavailableError";
    this.kind = options?.kind ?? "invalid_reply";
    this.ofContent = options?.ofContent ?? false;
  }
}
