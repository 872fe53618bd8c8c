/** A source that cannot give an image: refused (403), gone or failing (404), too large (413), not an image (415). */
export class ImageSourceError extends Error {
  constructor(
    readonly status: 403 | 404 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "ImageSourceError";
  }
}
