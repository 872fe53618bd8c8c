/** The blog's source could not give an answer (network, timeout, bad status, a reply that does not fit). */
export class BlogUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = "BlogUnavailableError";
  }
}
