/** What visitors read when something goes wrong (the spec's error catalogue). */
export const messages = {
  blogsFailed: "Failed to load blogs. Please try again later.",
  articleFailed: "Failed to load blog post. Please try again later.",
  articleMissing: "The requested article could not be found.",
} as const;
