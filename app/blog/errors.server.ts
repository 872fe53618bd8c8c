import type { BackendOutcome } from "~/metrics/record.server";

/** What went wrong, for the metrics: the backend answered with an error status, too late, nonsense, or not at all. */
export type BlogFailure = Exclude<BackendOutcome, "ok">;

/** The blog's source could not give an answer (network, timeout, bad status, a reply that does not fit). */
export class BlogUnavailableError extends Error {
  readonly kind: BlogFailure;
  constructor(reason: string, options?: { cause?: unknown; kind?: BlogFailure }) {
    super(reason, options);
    this.name = "BlogUnavailableError";
    this.kind = options?.kind ?? "invalid_reply";
  }
}
